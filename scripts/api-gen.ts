/**
 * Generates the web app's RTK Query endpoints from the server's OpenAPI document (`npm run api:gen`).
 *
 * The server is built in-process on an in-memory PGlite database and asked for its document (`app.swagger()`),
 * already cleaned of validation-only keywords by the server (src/server/http/openapi.ts); the `/portal` prefix
 * leaves the paths (the web app's base query adds the configured base). Then
 * @rtk-query/codegen-openapi writes one `*.gen.ts` per domain, next to the code that uses it, injecting into the
 * app's one API (`src/web/core/api.ts`), and openapi-typescript writes the types of the whole document to
 * `mocks/openapi.gen.ts`, which the mock backend's handlers are declared against (`mocks/openapiHttp.ts`).
 * `test/server/api-gen.test.ts` fails when a checked-in file is stale.
 */
import { format, resolveConfig } from 'prettier';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateEndpoints } from '@rtk-query/codegen-openapi';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The operations each domain's file holds, as `verb path` (path without `/portal`). The entity calls a schema's
 * `x-api` declares (paged, get, create, …) are not listed: `src/web/core/endpoints.ts` builds them from the
 * same schemas the server registers them from.
 */
export const API_DOMAINS: Record<string, string[]> = {
  'src/web/core/subscriberCommonApi.gen.ts': ['get /roaming-profiles', 'get /summa/subscriber-migration/{id}'],
  'src/web/core/authApi.gen.ts': ['get /user', 'get /user/ui-privileges', 'post /user/preferences', 'get /version', 'get /reseller-info/list'],
  'src/web/core/exchangeRateApi.gen.ts': ['get /exchange-rates'],
  'src/web/core/labsApi.gen.ts': ['get /labs', 'put /labs/{lab}'],
  'src/web/core/graphsApi.gen.ts': [
    'post /graphs/usage',
    'post /graphs/sales',
    'post /graphs/salesTotal',
    'post /graphs/salesTotalByCountry',
    'post /graphs/salesTotalByCustomer',
    'post /graphs/salesTotalByOperator',
    'post /graphs/salesTotalByVendor',
    'post /graphs/trends',
    'post /graphs/balanceHistory',
    'post /subscriber-info/top24Hours',
    'post /subscriber-info/top24Hours/{resellerId}',
  ],
  'src/web/core/pricingPlansApi.gen.ts': ['get /pricing-plans/'],
  'src/web/core/logoApi.gen.ts': ['delete /user/logo'],
  'src/web/core/twoFactorApi.gen.ts': [
    'get /user/two-factor',
    'post /user/two-factor/enrol',
    'post /user/two-factor/confirm',
    'post /user/two-factor/disable',
    'get /admin/two-factor/resellers',
    'put /admin/two-factor/resellers/{id}',
  ],
  'src/web/features/account-security/passwordApi.gen.ts': ['put /user/password'],
  'src/web/core/adminApi.gen.ts': ['get /admin/outbox', 'get /admin/join-requests'],
  'src/web/core/customFieldsApi.gen.ts': ['get /custom-fields/applicable/{entity}'],
  'src/web/core/subscriberGroupsApi.gen.ts': [
    'post /subscriber-groups/{id}/members',
    'post /subscriber-groups/{id}/members/remove',
    'post /subscriber-groups/{id}/members/paged',
  ],
  'src/web/core/jobsApi.gen.ts': ['get /jobs', 'get /jobs/{id}', 'get /jobs/{id}/items', 'post /jobs/{id}/cancel', 'post /jobs/{id}/retry'],
  'src/web/core/packagesApi.gen.ts': [
    'get /pre-paid-packages/list/{subscriberId}',
    'get /pre-paid-packages/templates',
    'post /pre-paid-packages/assign',
    'post /pre-paid-packages/purchase',
    'post /pre-paid-packages/api/expire',
    'get /ledger/balance',
  ],
  'src/web/features/assign-subscribers/rangeApi.gen.ts': [
    'post /subscribers/move',
    'post /subscribers/roaming-profile',
    'post /summa/subscriber-migration/range',
  ],
  'src/web/features/subscribers/sims/simApi.gen.ts': ['get /sim-cards/{iccid}', 'get /sim-cards', 'post /sim-cards/{iccid}'],
  'src/web/features/profiles/profilesApi.gen.ts': [
    'get /allowed-lists/{id}',
    'get /allowed-lists/{id}/networks',
    'get /allowed-lists/{id}/networks/{country}',
    'post /admin/block-networks',
    'post /allowed-lists/{id}/sync',
    'post /allowed-lists/{id}/impact',
    'post /roaming-profiles/{id}/impact',
    'post /admin/roaming-profiles/{id}/approve',
  ],
  'src/web/features/subscribers/subscriberApi.gen.ts': [
    'post /subscriber-info/api/',
    'post /subscriber-info/{id}/cancel-location',
    'post /subscribers/{id}/allowed-networks',
    'post /subscribers/{id}/push-pending-imsis',
    'put /subscribers/{id}/{imsi}/pending',
    'put /subscribers/{id}/roaming-profile/hss',
    'get /subscriber-info/operations/{id}',
    'get /subscriber-info/{id}/operations',
    'get /subscriber-info/{id}/pricing-plans',
    'get /subscriber-info/daily-limit/{id}',
    'post /subscriber-info/daily-limit',
    'get /reseller-info/api/qos-speed-limits',
    'get /subscriber-info/sim-info/{id}',
    'get /msisdn/{id}',
    'post /msisdn/{id}/modify-default',
    'get /subscriber-info/sponsor-imsis/{id}',
    'get /subscriber-info/audit-logs/{id}',
    'get /subscriber-info/usage-logs/{id}',
    'get /subscribers/{id}/roaming-profile',
    'post /misc/equipment',
    'post /subscriber-info/{id}/sms',
  ],
  'src/web/features/subscribers/bulk/bulkApi.gen.ts': ['post /subscribers/bulk/preview', 'post /subscribers/bulk'],
  'src/web/features/services/servicesApi.gen.ts': ['get /resellers/{id}/settings', 'put /resellers/{id}/settings'],
  'src/web/features/usage/usageApi.gen.ts': ['post /graphs/usageBy'],
  'src/web/features/network/networkApi.gen.ts': ['post /networks/usage/paged', 'post /networks/usage/countries', 'get /networks/{plmn}/profiles'],
  'src/web/features/resellers/webhooksApi.gen.ts': [
    'get /reseller-info/webhook-urls',
    'post /reseller-info/webhook-urls',
    'delete /reseller-info/webhook-urls',
    'post /reseller-info/webhook-secret',
    'post /reseller-info/webhook-urls/test',
    'get /reseller-info/webhook-deliveries',
    'post /reseller-info/webhook-deliveries/{id}/redeliver',
  ],
  'src/web/features/resellers/invoicesApi.gen.ts': ['post /reseller-info/invoices/{resellerId}', 'post /reseller-info/invoices/{resellerId}/issue'],
  'src/web/features/resellers/resellersApi.gen.ts': [
    'get /reseller-info/credit-limits/{id}',
    'post /reseller-info/credit-limits/{id}',
    'post /reseller-info/{id}/disputed-amount',
    'post /reseller-info/{id}/reset-usage-date',
  ],
  'src/web/features/reseller-pricing/resellerPricingApi.gen.ts': [
    'get /reseller-pricing',
    'get /reseller-pricing/countries',
    'get /reseller-pricing/location-zones',
    'get /reseller-pricing/destination-zones',
    'post /reseller-pricing/margin-preview',
    'put /reseller-pricing/plan',
  ],
  // Bank wire (multipart) and the proof download (streamed) are hand-written beside the screens that use them.
  'src/web/core/paymentsApi.gen.ts': [
    'get /payments/methods/credit-cards',
    'post /payments/methods/credit-cards',
    'delete /payments/methods/credit-cards/{id}',
    'get /payments/methods',
    'get /payments/currencies',
    'get /payments/parameters',
    'put /payments/parameters/resellers/{resellerId}',
    'post /payments/submit/calculate-fee',
    'post /payments/submit',
    'post /payments/submit/manual',
    'post /payments/reset',
    'get /payments/bit-pay/{id}',
    'get /payments/bank-wires/pending',
    'post /payments/bank-wires/{id}/confirm',
    'post /payments/bank-wires/{id}/reject',
    'post /payments/paged',
    'get /payments/{id}',
    'post /accounts/{id}/payments/paged',
    'get /accounts/{id}/payments',
  ],
  'src/web/core/inventoryApi.gen.ts': [
    'post /inventory/batches/sim-cards',
    'get /inventory/ranges',
    'post /inventory/assign',
    'get /inventory/msisdn-suppliers',
    'get /inventory/msisdn-countries',
    'post /inventory/msisdn-list',
    'post /inventory/devices',
    'get /inventory/devices/{id}/changes',
  ],
  'src/web/core/accessApi.gen.ts': ['post /join/recaptcha', 'post /join/request', 'put /user/password/reset'],
  'src/web/features/pricing/rulesApi.gen.ts': ['get /networks'],
  'src/web/features/dashboard/dashboardApi.gen.ts': ['post /graphs/countries', 'post /support/tickets', 'get /ledger/summary'],
  'src/web/features/finance/financeApi.gen.ts': [
    'get /finance/trial-balance',
    'get /finance/accounts/{code}/lines',
    'get /finance/ledger-check',
    'get /finance/overview',
  ],
  'src/web/features/orders/ordersApi.gen.ts': [
    'get /sim-providers',
    'get /sim-providers/profiles',
    'get /sim-providers/profiles/paged',
    'get /sim-providers/profiles/{id}',
    'post /sim-providers/profiles/request',
    'post /sim-providers/profiles/{id}/review',
    'get /sim-orders/types',
    'get /sim-orders/info/{simSize}',
    'get /sim-orders/ef-config',
    'post /sim-orders/price',
    'post /sim-orders/submit',
    'post /sim-orders',
    'post /sim-orders/admin',
    'get /sim-orders/{uuid}',
    'get /sim-orders/{uuid}/admin',
    'get /sim-orders/{uuid}/slots',
    'post /sim-orders/{uuid}/financial-approval/{approved}',
    'post /sim-orders/{uuid}/admin/technical-approval/{approved}',
    'post /sim-orders/{uuid}/cancel',
    'get /sim-orders/{uuid}/admin/available-resources',
    'post /sim-orders/{uuid}/admin/resources',
    'post /sim-orders/{uuid}/admin/discounts/calculate',
    'post /sim-orders/{uuid}/admin/discounts',
    'get /sim-orders/{uuid}/admin/order',
    'post /sim-orders/{uuid}/deliver',
    'post /sim-orders/admin/resource-ranges/paged',
    'post /sim-orders/admin/resource-ranges',
    'put /sim-orders/admin/resource-ranges/{id}',
    'post /sim-orders/admin/resource-ranges/{id}/retire',
    'get /sim-order-settings/{resellerId}',
    'put /sim-order-settings/{resellerId}',
  ],
};

/** Calls that read but take their question as a POST body: generated as queries (cached, refetched), not mutations. */
const READING_POSTS = new Set([
  'post /sim-orders',
  'post /sim-orders/admin',
  'post /sim-orders/admin/resource-ranges/paged',
  'post /sim-orders/price',
  'post /graphs/balanceHistory',
  'post /graphs/usage',
  'post /graphs/usageBy',
  'post /graphs/sales',
  'post /graphs/salesTotal',
  'post /graphs/salesTotalByCountry',
  'post /graphs/salesTotalByCustomer',
  'post /graphs/salesTotalByOperator',
  'post /graphs/salesTotalByVendor',
  'post /graphs/trends',
  'post /graphs/countries',
  'post /subscriber-info/top24Hours',
  'post /subscriber-info/top24Hours/{resellerId}',
  'post /payments/submit/calculate-fee',
  'post /payments/paged',
  'post /accounts/{id}/payments/paged',
  'post /reseller-info/invoices/{resellerId}',
  'post /networks/usage/paged',
  'post /networks/usage/countries',
  'post /subscriber-groups/{id}/members/paged',
  'post /inventory/msisdn-list',
  'post /inventory/devices',
]);

/** The types of the whole document (its `paths`, `components` and `operations`), for the mock backend. */
export const DOCUMENT_TYPES_FILE = 'mocks/openapi.gen.ts';

/** The server's document (already cleaned of validation-only keywords) as the client sees it: paths under the API base. */
export async function clientDocument(): Promise<Record<string, unknown>> {
  const { openDatabase } = await import('@server/db');
  const { buildApp } = await import('@server/app');
  const database = await openDatabase({ dataDir: 'memory' });
  const app = await buildApp({ database, jwtSecret: 'api-gen' });
  try {
    await app.ready();
    const doc = app.swagger() as { paths: Record<string, unknown> };
    const paths = Object.fromEntries(Object.entries(doc.paths).map(([path, item]) => [path.replace(/^\/portal(?=\/|$)/, '') || '/', item]));
    return { ...doc, paths };
  } finally {
    await app.close();
    await database.close();
  }
}

/** Generates every domain's file from a document; answers file (relative to the root) → content. */
export async function generateAll(doc: Record<string, unknown>): Promise<Map<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'api-gen-'));
  const schemaFile = join(dir, 'openapi.json');
  await writeFile(schemaFile, JSON.stringify(doc, null, 2));
  const paths = (doc.paths ?? {}) as Record<string, Record<string, unknown>>;
  const files = new Map<string, string>();
  try {
    for (const [file, operations] of Object.entries(API_DOMAINS)) {
      for (const op of operations) {
        const [verb, path] = op.split(' ');
        if (!paths[path]?.[verb]) throw new Error(`${file}: the document has no operation ${op}`);
      }
      const wanted = new Set(operations);
      const code = await generateEndpoints({
        schemaFile,
        apiFile: '@web/core/api',
        apiImport: 'api',
        hooks: true,
        tag: true,
        useUnknown: true,
        flattenArg: true,
        encodePathParams: true,
        filterEndpoints: (_name, { verb, path }) => wanted.has(`${verb} ${path}`),
        endpointOverrides: [{ pattern: (_name, { verb, path }) => READING_POSTS.has(`${verb} ${path}`), type: 'query' }],
      });
      if (typeof code !== 'string') throw new Error(`${file}: nothing generated`);
      files.set(file, await generatedFile(file, code));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const types = astToString(await openapiTS(doc as unknown as OpenAPI3, { alphabetize: true }));
  files.set(DOCUMENT_TYPES_FILE, await generatedFile(DOCUMENT_TYPES_FILE, types));
  return files;
}

/** A generated file's content: the do-not-edit header, laid out by the project's Prettier settings (so `npm run lint` and the staleness test agree). */
async function generatedFile(file: string, code: string): Promise<string> {
  const text = `/* Generated by \`npm run api:gen\` from the server's OpenAPI document: do not edit. */\n${code}`;
  const filepath = join(ROOT, file);
  return format(text, { ...(await resolveConfig(filepath)), filepath });
}

/** Files whose checked-in content differs from what the document generates now. */
export async function staleFiles(generated: Map<string, string>): Promise<string[]> {
  const stale: string[] = [];
  for (const [file, code] of generated) {
    const current = await readFile(join(ROOT, file), 'utf8').catch(() => null);
    if (current !== code) stale.push(file);
  }
  return stale;
}

async function main() {
  const generated = await generateAll(await clientDocument());
  for (const [file, code] of generated) await writeFile(join(ROOT, file), code);
  console.log(`Wrote ${generated.size} files:\n${[...generated.keys()].map((f) => `  ${f}`).join('\n')}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
