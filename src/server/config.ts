import { resolve } from 'node:path';

/** Every setting the server reads, from the environment, in one place (docs/configuration.md lists them). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Requests that may wait for a database connection at once (DB_QUEUE_LIMIT); the engine's default otherwise. */
  dbQueueLimit?: number;
  /** How long a request may wait for database connections in all, in ms (DB_QUEUE_WAIT_MS); the engine's default otherwise. */
  dbQueueWaitMs?: number;
  /** Read replicas of DATABASE_URL for paged lists (DATABASE_READ_URL, comma-separated); none: lists read the primary. */
  databaseReadUrls: string[];
  /** Server processes sharing the port (WORKERS); 1 runs the server in this process. PostgreSQL only when above 1. */
  workers: number;
  adminPassword?: string;
  seedDemo: boolean;
  /** Subscribers the demo seed creates. */
  demoSubscribers: number;
  /** Whether the demo seed writes a year of package sales (DEMO_SALES). */
  demoSales: boolean;
  jwtSecret?: string;
  jwtExpirySeconds: number;
  twoFactorKey?: string;
  /** Encrypts the SIMs' secret keys of orders (SIM_KEYS_KEY); else a key file generated in the data folder. */
  simKeysKey?: string;
  /** The SIM vendor's gateway (SIM_VENDOR_URL); without it the local simulator produces the batch files. */
  simVendorUrl?: string;
  logLevel: string;
  webRoot: string;
  /** Base of links in mails (password reset). */
  publicUrl: string;
  /** SMTP server for mail; without it mail goes to the outbox the administrator reads. */
  smtpUrl?: string;
  mailFrom: string;
  /** Receives join requests; else the administrator's e-mail, else the outbox. */
  adminEmail?: string;
  altchaHmacKey?: string;
  altchaCost: number;
  /** Shared attempt counters for several servers; in memory otherwise. */
  redisUrl?: string;
  rateLimitWindowMinutes: number;
  rateLimitPerAddress: number;
  rateLimitPerName: number;
  /** Trust X-Forwarded-* from a reverse proxy: true, a hop count, or the proxy's addresses. */
  trustProxy: boolean | number | string;
  /** Core-network gateway; without it the local simulator answers. */
  coreNetworkUrl?: string;
  coreNetworkFailureRate?: number;
  coreNetworkDelay?: string;
  /** Core-network requests in flight at once (CORE_NETWORK_CONCURRENCY); the adapter's default otherwise. */
  coreNetworkConcurrency?: number;
  /** Items a background job applies per transaction (JOB_CHUNK); the runner's default otherwise. */
  jobChunk?: number;
  /** JSON source of exchange rates (e.g. https://api.frankfurter.app/latest?from=USD); stored rates otherwise. */
  exchangeRateUrl?: string;
  exchangeRateRefreshHours: number;
  /**
   * How far the JavaScript heap may grow past what the last full collection kept, in percent (HEAP_GROWING_PERCENT;
   * 0 leaves the engine's own rule, which lets a long download quadruple it with garbage).
   */
  heapGrowingPercent: number;
  /** Webhook URLs may reach private and loopback addresses (WEBHOOK_ALLOW_PRIVATE). */
  webhookAllowPrivate: boolean;
  /** Stripe's secret key (STRIPE_SECRET_KEY): offers the STRIPE payment method. */
  stripeSecretKey?: string;
  /** Seconds until a sandbox crypto invoice confirms (BITPAY_SANDBOX_CONFIRM_SECONDS). */
  bitPaySandboxConfirmSeconds: number;
  /** How often confirmed crypto invoices are credited, in seconds (PAYMENT_SWEEP_SECONDS). */
  paymentSweepSeconds: number;
  /** Usage and location records written while the server runs (USAGE_SIMULATOR on/off; on with the embedded demo database). */
  usageSimulator: boolean;
  /** Seconds between the simulator's batches (USAGE_SIMULATOR_SECONDS). */
  usageSimulatorSeconds: number;
  /** Subscribers per simulator batch (USAGE_SIMULATOR_BATCH). */
  usageSimulatorBatch: number;
}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  const port = Number(env.PORT ?? 8080);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl,
    dbQueueLimit: env.DB_QUEUE_LIMIT ? Number(env.DB_QUEUE_LIMIT) : undefined,
    dbQueueWaitMs: env.DB_QUEUE_WAIT_MS ? Number(env.DB_QUEUE_WAIT_MS) : undefined,
    databaseReadUrls: (env.DATABASE_READ_URL ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    workers: Math.max(1, Math.floor(Number(env.WORKERS ?? 1)) || 1),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    // Demo data fills the embedded database by default; PostgreSQL gets it only when asked.
    seedDemo: env.SEED_DEMO !== undefined ? env.SEED_DEMO === '1' || env.SEED_DEMO === 'true' : !databaseUrl,
    demoSubscribers: Number(env.DEMO_SUBSCRIBERS ?? 20000),
    demoSales: env.DEMO_SALES !== '0' && env.DEMO_SALES !== 'false',
    jwtSecret: env.JWT_SECRET || undefined,
    jwtExpirySeconds: Number(env.JWT_EXPIRY_SECONDS ?? 3600),
    twoFactorKey: env.TWO_FACTOR_KEY || undefined,
    simKeysKey: env.SIM_KEYS_KEY || undefined,
    simVendorUrl: env.SIM_VENDOR_URL || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    webRoot: resolve(env.WEB_ROOT ?? './dist/web'),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    coreNetworkUrl: env.CORE_NETWORK_URL || undefined,
    coreNetworkFailureRate: env.CORE_NETWORK_FAILURE_RATE ? Number(env.CORE_NETWORK_FAILURE_RATE) : undefined,
    coreNetworkDelay: env.CORE_NETWORK_DELAY_MS || undefined,
    coreNetworkConcurrency: env.CORE_NETWORK_CONCURRENCY ? Number(env.CORE_NETWORK_CONCURRENCY) : undefined,
    jobChunk: env.JOB_CHUNK ? Number(env.JOB_CHUNK) : undefined,
    publicUrl: env.PUBLIC_URL || `http://localhost:${port}`,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'portal@localhost',
    adminEmail: env.ADMIN_EMAIL || undefined,
    altchaHmacKey: env.ALTCHA_HMAC_KEY || undefined,
    altchaCost: Number(env.ALTCHA_COST ?? 5000),
    redisUrl: env.REDIS_URL || undefined,
    rateLimitWindowMinutes: Number(env.RATE_LIMIT_WINDOW_MINUTES ?? 15),
    rateLimitPerAddress: Number(env.RATE_LIMIT_PER_ADDRESS ?? 20),
    rateLimitPerName: Number(env.RATE_LIMIT_PER_NAME ?? 5),
    exchangeRateUrl: env.EXCHANGE_RATE_URL || undefined,
    exchangeRateRefreshHours: Number(env.EXCHANGE_RATE_REFRESH_HOURS ?? 12),
    heapGrowingPercent: Number(env.HEAP_GROWING_PERCENT ?? 30),
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === 'true' || env.WEBHOOK_ALLOW_PRIVATE === '1',
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    bitPaySandboxConfirmSeconds: Number(env.BITPAY_SANDBOX_CONFIRM_SECONDS ?? 30),
    paymentSweepSeconds: Number(env.PAYMENT_SWEEP_SECONDS ?? 15),
    usageSimulator: env.USAGE_SIMULATOR ? ['on', 'true', '1'].includes(env.USAGE_SIMULATOR) : !databaseUrl,
    usageSimulatorSeconds: Number(env.USAGE_SIMULATOR_SECONDS ?? 10),
    usageSimulatorBatch: Number(env.USAGE_SIMULATOR_BATCH ?? 20),
  };
}
