import { resolve } from 'node:path';

/** Every setting the server reads, from the environment, in one place (the README lists them). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  adminPassword?: string;
  seedDemo: boolean;
  jwtSecret?: string;
  jwtExpirySeconds: number;
  logLevel: string;
  webRoot: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    // Demo data fills the embedded database by default; PostgreSQL gets it only when asked.
    seedDemo: env.SEED_DEMO !== undefined ? env.SEED_DEMO === '1' || env.SEED_DEMO === 'true' : !databaseUrl,
    jwtSecret: env.JWT_SECRET || undefined,
    jwtExpirySeconds: Number(env.JWT_EXPIRY_SECONDS ?? 3600),
    logLevel: env.LOG_LEVEL ?? 'info',
    webRoot: resolve(env.WEB_ROOT ?? './dist/web'),
  };
}
