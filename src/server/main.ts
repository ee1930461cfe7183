import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { loadConfig } from './config';
import { openDatabase } from './db';
import { ensureAdmin, seedDemo } from './db/seed';
import { buildApp } from './app';
import { parseDelay } from './adapters/core-network/simulator';

const config = loadConfig();
// Memory stays near what is live: a million-row download allocates fast, and by default the heap would grow to
// several times its live size before a full collection (see docs/performance.md).
if (config.heapGrowingPercent > 0) setFlagsFromString(`--heap-growing-percent=${config.heapGrowingPercent}`);
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  queue: { limit: config.dbQueueLimit, waitMs: config.dbQueueWaitMs },
});
const adminPassword = await ensureAdmin(database.db, config.adminPassword);
const seedStart = performance.now();
const demoUsers = config.seedDemo ? await seedDemo(database.db, { subscribers: config.demoSubscribers }) : [];
const seedSeconds = (performance.now() - seedStart) / 1000;

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
const url = `http://localhost:${config.port}/`;
const lines = [
  '',
  `Connectivity portal is ready at ${url}`,
  `Database: ${database.engine === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}`,
];
if (adminPassword) lines.push(`Sign in as "admin" with the generated password: ${adminPassword}   (shown once; set ADMIN_PASSWORD to choose it)`);
else lines.push('Sign in as "admin" with the password you set in ADMIN_PASSWORD when the database was created.');
if (demoUsers.length) lines.push(`Demo data (${config.demoSubscribers} subscribers) loaded in ${seedSeconds.toFixed(1)} s`);
for (const u of demoUsers) lines.push(`Demo user "${u.username}" (${u.role}), password: ${u.password}`);
console.log(lines.join('\n') + '\n');
