import { existsSync } from 'node:fs';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { EntitySchema } from '@shared/schema';
import pkg from '../../package.json' with { type: 'json' };
import type { Db } from './db';
import { registerAccess, type AccessOptions } from './domains/access';
import { registerAuthRoutes } from './domains/auth/routes';
import { createTokens } from './domains/auth/tokens';
import { registerLogoRoutes } from './domains/logo/routes';
import { registerEntityRoutes } from './engine/routes';
import { roleHooks } from './domains/roles/hooks';
import { userHooks } from './domains/users/hooks';
import { loadSchemas } from './engine/schemas';
import { registerErrorHandler } from './http/errors';
import { registerGuard } from './http/guard';

export interface AppOptions {
  database: Db;
  jwtSecret?: string;
  jwtExpirySeconds?: number;
  /** Folder of the built web app; not served when absent (API-only tests). */
  webRoot?: string;
  logger?: FastifyServerOptions['logger'];
  schemas?: EntitySchema[];
  /** Password reset, join requests, mail, robot check and attempt limits. */
  access?: AccessOptions;
  /** Trust X-Forwarded-* from a reverse proxy (true, a hop count, or addresses), so limits see client addresses. */
  trustProxy?: boolean | number | string;
}

/** Builds the whole server: used by `npm start` and by tests through `inject`. */
export async function buildApp(opts: AppOptions) {
  const app = Fastify({
    logger: opts.logger ?? false,
    // A hop count is valid at run time though the types leave it out.
    trustProxy: (opts.trustProxy ?? false) as boolean | string,
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 1024 * 1024,
  });
  const { db } = opts.database;
  const schemas = opts.schemas ?? loadSchemas();
  const tokens = await createTokens(db, { secret: opts.jwtSecret, expirySeconds: opts.jwtExpirySeconds ?? 3600 });

  registerErrorHandler(app);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: { 'script-src': ["'self'"], 'style-src': ["'self'", "'unsafe-inline'"], 'img-src': ["'self'", 'data:', 'blob:'], 'worker-src': ["'self'", 'blob:'] },
    },
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Connectivity portal API', version: pkg.version },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
  });
  registerGuard(app, db, tokens);

  app.get('/portal/version', { config: { public: true }, schema: { tags: ['system'] } }, async () => ({ name: pkg.name, version: pkg.version, engine: opts.database.engine }));
  app.get('/portal/v3/api-docs', { config: { signedIn: true }, schema: { hide: true } }, async () => app.swagger());
  await registerAccess(app, db, opts.access); // before the routes whose attempts it limits
  registerAuthRoutes(app, db, tokens);
  await registerLogoRoutes(app, db);
  registerEntityRoutes(app, db, schemas, { user: userHooks, role: roleHooks });

  if (opts.webRoot && existsSync(opts.webRoot)) {
    await app.register(fastifyStatic, { root: opts.webRoot, prefix: '/', wildcard: false });
  }
  return app;
}
