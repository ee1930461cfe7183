import cluster from 'node:cluster';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { loadConfig } from './config';
import { openDatabase, type Db } from './db';
import { ensureAdmin, seedDemo } from './db/seed';
import { buildApp } from './app';
import { parseDelay } from './adapters/core-network/simulator';

const config = loadConfig();
// Memory stays near what is live: a million-row download allocates fast, and by default the heap would grow to
// several times its live size before a full collection (see docs/performance.md).
if (config.heapGrowingPercent > 0) setFlagsFromString(`--heap-growing-percent=${config.heapGrowingPercent}`);
if (config.workers > 1 && !config.databaseUrl) {
  console.error('WORKERS above 1 needs DATABASE_URL: the embedded database belongs to one process.');
  process.exit(1);
}

/** How requests wait for the database: first come, first served, bounded (docs/configuration.md). */
const queue = { limit: config.dbQueueLimit, waitMs: config.dbQueueWaitMs };

/** Migrates, creates the administrator and seeds the demo data: once, before any server process starts. */
async function prepare(database: Db) {
  const adminPassword = await ensureAdmin(database.db, config.adminPassword);
  const seedStart = performance.now();
  const demoUsers = config.seedDemo ? await seedDemo(database.db, { subscribers: config.demoSubscribers, sales: config.demoSales }) : [];
  return { adminPassword, demoUsers, seedSeconds: (performance.now() - seedStart) / 1000 };
}

function ready({ adminPassword, demoUsers, seedSeconds }: Awaited<ReturnType<typeof prepare>>, engine: Db['engine']) {
  const url = `http://localhost:${config.port}/`;
  const lines = ['', `Connectivity portal is ready at ${url}`, `Database: ${engine === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}`];
  if (config.workers > 1) lines.push(`Server processes: ${config.workers}`);
  if (config.databaseReadUrls.length) lines.push(`Read replicas for lists: ${config.databaseReadUrls.length}`);
  if (adminPassword) lines.push(`Sign in as "admin" with the generated password: ${adminPassword}   (shown once; set ADMIN_PASSWORD to choose it)`);
  else lines.push('Sign in as "admin" with the password you set in ADMIN_PASSWORD when the database was created.');
  if (demoUsers.length) lines.push(`Demo data (${config.demoSubscribers} subscribers) loaded in ${seedSeconds.toFixed(1)} s`);
  for (const u of demoUsers) lines.push(`Demo user "${u.username}" (${u.role}), password: ${u.password}`);
  console.log(lines.join('\n') + '\n');
}

/**
 * WORKERS above 1: this process prepares the database, then forks the server processes, which share the port (the
 * operating system hands each new connection to one of them). One that dies is started again; SIGTERM or SIGINT
 * is passed on to all, each finishes its requests in flight, and this process leaves when the last has.
 */
async function primary() {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, queue });
  const prepared = await prepare(database);
  await database.close();
  let closing = false;
  let listening = 0;
  const fork = () => {
    const worker = cluster.fork();
    worker.once('listening', () => {
      if (++listening === config.workers) ready(prepared, 'postgres');
    });
  };
  cluster.on('exit', (worker, code, signal) => {
    if (closing) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`server process ${worker.process.pid} ended (${signal ?? code}); starting another`);
    setTimeout(fork, 1000);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      closing = true;
      const workers = Object.values(cluster.workers ?? {});
      if (workers.length === 0) process.exit(0);
      for (const w of workers) w?.process.kill('SIGTERM');
    });
  }
  for (let i = 0; i < config.workers; i++) fork();
}

if (config.workers > 1 && cluster.isPrimary) await primary();
else await serve();

/** One server process: the whole portal on the port (preparing the database first when it is the only one). */
async function serve() {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, readUrls: config.databaseReadUrls, queue });
  const prepared = cluster.isWorker ? undefined : await prepare(database);

  const app = await buildApp({
    database,
    jwtSecret: config.jwtSecret,
    twoFactorKey: config.twoFactorKey,
    jwtExpirySeconds: config.jwtExpirySeconds,
    webRoot: config.webRoot,
    trustProxy: config.trustProxy,
    coreNetwork: {
      url: config.coreNetworkUrl,
      concurrency: config.coreNetworkConcurrency,
      simulator: { failureRate: config.coreNetworkFailureRate, ...parseDelay(config.coreNetworkDelay) },
    },
    exchangeRates: { url: config.exchangeRateUrl, refreshHours: config.exchangeRateRefreshHours },
    jobs: { chunk: config.jobChunk },
    webhooks: { allowPrivate: config.webhookAllowPrivate },
    payments: {
      stripeSecretKey: config.stripeSecretKey,
      bitPaySandboxConfirmSeconds: config.bitPaySandboxConfirmSeconds,
      sweepMs: config.paymentSweepSeconds * 1000,
    },
    usageSimulator: { enabled: config.usageSimulator, everySeconds: config.usageSimulatorSeconds, batch: config.usageSimulatorBatch },
    orders: { keysKey: config.simKeysKey, keysKeyFile: join(config.dataDir, 'sim-keys.key'), vendor: { url: config.simVendorUrl } },
    logger: { level: config.logLevel },
    access: {
      publicUrl: config.publicUrl,
      adminEmail: config.adminEmail,
      mail: { smtpUrl: config.smtpUrl, from: config.mailFrom },
      altcha: { hmacKey: config.altchaHmacKey, cost: config.altchaCost },
      limits: {
        redisUrl: config.redisUrl,
        windowMinutes: config.rateLimitWindowMinutes,
        perAddress: config.rateLimitPerAddress,
        perName: config.rateLimitPerName,
      },
    },
  });

  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, async () => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      await app.close(); // stops accepting, lets requests in flight finish
      await database.close();
      process.exit(0);
    });
  }

  await app.listen({ port: config.port, host: config.host });
  if (prepared) ready(prepared, database.engine);
}
