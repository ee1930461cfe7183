import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import type { EntitySchema } from '@shared/schema';
import pkg from '../../package.json' with { type: 'json' };
import type { Db } from './db';
import { asRequest } from './db/queue';
import { createTokens } from './domains/auth/tokens';
import type { UsageSimulatorOptions } from './adapters/core-network/usageSimulator';
import { ensureNetworks } from './domains/networks/catalogue';
import type { AccessOptions } from './domains/access';
import access from './domains/access/plugin';
import allowedLists from './domains/allowed-lists/plugin';
import customFields from './domains/custom-fields/plugin';
import auth from './domains/auth/plugin';
import exchangeRates from './domains/exchange-rates/plugin';
import finance from './domains/finance/plugin';
import type { ExchangeRateOptions } from './domains/exchange-rates/routes';
import inventory from './domains/inventory/plugin';
import invoices, { type InvoiceOptions } from './domains/invoices/plugin';
import labs from './domains/labs/plugin';
import graphs from './domains/graphs/plugin';
import type { UsageTotalsOptions } from './domains/graphs/totalsCache';
import support from './domains/support/plugin';
import ledger from './domains/ledger/plugin';
import logo from './domains/logo/plugin';
import networks from './domains/networks/plugin';
import orders, { type OrderOptions } from './domains/orders/plugin';
import type { DomainOptions, DomainPlugin } from './domains/plugin';
import payments from './domains/payments/plugin';
import prepaid from './domains/prepaid/plugin';
import pricing from './domains/pricing/plugin';
import resellerPricing from './domains/reseller-pricing/plugin';
import resellerSettings from './domains/reseller-settings/plugin';
import resellers from './domains/resellers/plugin';
import roamingProfiles from './domains/roaming-profiles/plugin';
import serviceClasses from './domains/service-classes/plugin';
import subscribers from './domains/subscribers/plugin';
import webhooks from './domains/webhooks/plugin';
import type { WebhookOptions } from './domains/webhooks/worker';
import type { MigrationPlatform, MigrationSettings } from './adapters/migration';
import type { PaymentSettings } from './adapters/payments';
import entityRoutes from './engine/plugin';
import jobRoutes from './jobs/plugin';
import { createCoreNetwork, type CoreNetwork, type CoreNetworkSettings } from './adapters/core-network';
import { loadSchemas } from './engine/schemas';
import { createValidatorCompiler } from './engine/validator';
import { registerErrorHandler } from './http/errors';
import { registerIdParams, registerInputGuard } from './http/input';
import { registerGuard } from './http/guard';
import { swaggerOptions } from './http/openapi';
import { Principals } from './http/principal';
import { JobRunner, type RunnerOptions } from './jobs/runner';

declare module 'fastify' {
  interface FastifyInstance {
    /** Durable background jobs: domains register kinds, requests enqueue (see jobs/runner.ts). */
    jobs: JobRunner;
  }
}

export interface AppOptions {
  database: Db;
  jwtSecret?: string;
  jwtExpirySeconds?: number;
  /** Encrypts the two-factor secrets; generated and kept in the database when absent. */
  twoFactorKey?: string;
  /** Folder of the built web app; not served when absent (API-only tests). */
  webRoot?: string;
  logger?: FastifyServerOptions['logger'];
  schemas?: EntitySchema[];
  /** Password reset, join requests, mail, robot check and attempt limits. */
  access?: AccessOptions;
  /** Trust X-Forwarded-* from a reverse proxy (true, a hop count, or addresses), so limits see client addresses. */
  trustProxy?: boolean | number | string;
  /** Chunk size, polling and lease of the background job runner. */
  jobs?: RunnerOptions;
  /** The core network: a local simulator unless a gateway URL is set. */
  coreNetwork?: CoreNetworkSettings;
  /** Source of exchange rates; the stored rates serve without one. */
  exchangeRates?: ExchangeRateOptions;
  /** Migration to the external core platform: a local simulator unless a gateway URL is set. */
  migration?: MigrationSettings;
  /** Webhook delivery: whether private addresses are allowed, polling, backoff, attempts and timeout. */
  webhooks?: WebhookOptions;
  /** Card processor, Stripe, the crypto gateway and its sweep: sandboxes unless configured (see docs/payments.md). */
  payments?: PaymentSettings;
  /** Monthly invoices: whether the server issues last month's by itself, how often, and PDF compression. */
  invoices?: InvoiceOptions;
  /** Usage and location records written while the server runs (the demo's); off unless enabled. */
  usageSimulator?: UsageSimulatorOptions;
  /** SIM orders: the key the SIMs' secret keys are encrypted with, and the SIM vendor (a simulator unless configured). */
  orders?: OrderOptions;
  /** How long the Usage screen's totals are kept for its pages and orders, and how many rows in all (totalsCache.ts). */
  usageTotals?: UsageTotalsOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The core network (HLR/HSS, signalling) behind its adapter; every request lands in the network event log. */
    coreNetwork: CoreNetwork;
    /** Migration of subscribers to the external core platform, behind its adapter. */
    migration: MigrationPlatform;
  }
}

/** A file of the web build named with a hash of its content (`assets/name-Hash1234.js`, or its .br/.gz copy). */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[\w-]{8}\.\w+(?:\.br|\.gz)?$/;

/** Builds the whole server: used by `npm start` and by tests through `inject`. */
export async function buildApp(opts: AppOptions) {
  const app = Fastify({
    logger: opts.logger ?? false,
    // A hop count is valid at run time though the types leave it out.
    trustProxy: (opts.trustProxy ?? false) as boolean | string,
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 1024 * 1024,
  });
  // One validator for every route's params, query and body: ajv with the project's formats and message ids.
  app.setValidatorCompiler(createValidatorCompiler());
  const { db } = opts.database;
  const schemas = opts.schemas ?? loadSchemas();
  const tokens = await createTokens(db, { secret: opts.jwtSecret, expirySeconds: opts.jwtExpirySeconds ?? 3600 });

  registerErrorHandler(app);
  // Each request's statements wait for the database in one bounded line (db/queue.ts); background work is not a request.
  app.addHook('onRequest', (_request, _reply, done) => asRequest(done));
  registerInputGuard(app);
  registerIdParams(app);
  // Helmet's security headers, its middleware made once: the Fastify plugin builds helmet anew (and parses the
  // policy's directives again) for every request.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'worker-src': ["'self'", 'blob:'],
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)));
  // A call to the API that finds the database's line full is refused before anything is read or checked: under a
  // flood of retries the refusals must cost little, or they take the thread from the requests in line.
  app.addHook('onRequest', (request, _reply, done) => done(request.url.startsWith('/portal/') ? opts.database.queue.refuseIfFull() : undefined));
  await app.register(
    fastifySwagger,
    swaggerOptions({ title: 'Connectivity portal API', version: pkg.version }, opts.access?.publicUrl?.replace(/\/+$/, '') || '/'),
  );
  const principals = new Principals(db);
  const stopPrincipals = await principals.start(opts.database);
  app.addHook('onClose', stopPrincipals);
  registerGuard(app, principals, tokens);
  // Domains register their job kinds on it; the runner starts once the server is ready and stops with it.
  app.decorate('jobs', new JobRunner(db, app.log, opts.jobs));
  app.addHook('onReady', async () => app.jobs.start());
  app.addHook('onClose', async () => app.jobs.stop());
  app.decorate('coreNetwork', createCoreNetwork(db, app.log, opts.coreNetwork));
  // Answers still on their way are applied before the database closes.
  app.addHook('onClose', async () => app.coreNetwork.idle());
  await ensureNetworks(db);

  app.get(
    '/portal/version',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: "The server's name, version and database engine",
        response: {
          200: {
            type: 'object',
            required: ['name', 'version', 'engine'],
            properties: { name: { type: 'string' }, version: { type: 'string' }, engine: { type: 'string', enum: ['pglite', 'postgres'] } },
          },
        },
      },
    },
    async () => ({ name: pkg.name, version: pkg.version, engine: opts.database.engine }),
  );
  app.get('/portal/v3/api-docs', { config: { signedIn: true }, schema: { hide: true } }, async () => app.swagger());
  // The domains by name, registered in this order: access comes before the routes whose attempts it limits.
  const domains: Record<string, DomainPlugin> = {
    'exchange-rates': exchangeRates,
    access,
    auth,
    // Before the domains whose routes name a lab: its hooks check them as they are registered.
    labs,
    logo,
    networks,
    'allowed-lists': allowedLists,
    entities: entityRoutes,
    'custom-fields': customFields,
    'roaming-profiles': roamingProfiles,
    subscribers,
    'service-classes': serviceClasses,
    jobs: jobRoutes,
    prepaid,
    ledger,
    graphs,
    payments,
    finance,
    pricing,
    'reseller-pricing': resellerPricing,
    resellers,
    'reseller-settings': resellerSettings,
    webhooks,
    invoices,
    support,
    inventory,
    orders,
  };
  const domainOptions: DomainOptions = { database: opts.database, schemas, tokens, app: opts };
  for (const plugin of Object.values(domains)) await app.register(plugin, domainOptions);

  if (opts.webRoot && existsSync(opts.webRoot)) {
    // The build writes brotli and gzip copies beside its files (see src/web/build/precompressPlugin.ts). Files under
    // assets/ carry a hash of their content in their name, so a browser keeps them for good; index.html names the
    // current ones and is checked again on every load.
    await app.register(fastifyStatic, {
      root: opts.webRoot,
      prefix: '/',
      wildcard: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header('Cache-Control', HASHED_ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  return app;
}
