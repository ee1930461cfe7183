/**
 * Every operation of the OpenAPI document gets the inputs that break naive parsing: ids past a 32-bit integer,
 * numbers past any column, text where a number belongs, NUL bytes, lone surrogates and very long text, in each path
 * parameter, query parameter, documented body property (nested ones included), list request and uploaded CSV cell.
 * No answer may be a 5xx or carry a database message, and no value may reach the database to be refused there: the
 * error handler would turn that into a 400, but it means a check is missing at the edge (the app's log shows it).
 * BAD_INPUT_TRACE=1 prints each operation and failure as it goes; BAD_INPUT_ONLY=<regex> sends to matching ones only.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_COLUMNS } from '@server/domains/roaming-profiles/routes';
import { RULE_FIELDS } from '@server/domains/pricing/rules';
import { loadSchemas } from '@server/engine/schemas';
import { apiRoutes } from '@shared/schema';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Json = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  op: Json;
}
interface Case {
  label: string;
  request: InjectOptions;
}

const LONG = 'x'.repeat(1_000_000);
const NUL = 'a\u0000b';
const SURROGATE = 'a\ud800b';
/** Path and query values, as a client puts them in a URL (a lone surrogate can only arrive as its CESU-8 bytes). */
const URL_VALUES = ['2147483648', '99999999999999999999', '-1', 'abc', 'a%00b', 'a%ED%A0%80b', '1e308', 'x'.repeat(10_000)];
/** JSON values of a body property. */
const JSON_VALUES: unknown[] = [2147483648, 1e20, -1, 1e308, '2147483648', '99999999999999999999', 'abc', NUL, SURROGATE, LONG];
/** CSV cells of an upload. */
const CSV_VALUES = ['2147483648', '99999999999999999999', '-1', 'abc', '1e308', NUL, 'x'.repeat(100_000)];
/** Query parameters some calls read without documenting them. */
const EXTRA_QUERY = ['page', 'size', 'reseller_id', 'subscriber_id', 'slot_count', 'show_expired', 'searchKey', 'from', 'to'];
/** What a database error looks like when it leaks (PostgreSQL's message texts and codes). */
const DATABASE_TEXT =
  /syntax error|relation "|column "|violates|pg_|SQLSTATE|out of range for type|invalid input syntax|invalid byte sequence|unsupported Unicode|"code":"[0-9][0-9A-Z]{4}"/i;
const IMSI = '310150123456789';
/** Calls that read no input at all and cost a while each (the whole country list, a catalogue refresh): sent once. */
const INPUTLESS = new Set(['GET /portal/misc/countries', 'GET /portal/time-zones', 'POST /portal/admin/update-sponsor-networks']);
/** Calls whose body is a list request, documented or not. */
const LIST_CALL = /\/(paged|search|download|sales|charges|network-events|top24Hours)\b/;

const set = (target: Json, path: (string | number)[], value: unknown): Json => {
  const root = structuredClone(target);
  let at: any = root;
  path.forEach((key, i) => {
    if (i === path.length - 1) at[key] = value;
    else {
      if (typeof at[key] !== 'object' || at[key] === null) at[key] = typeof path[i + 1] === 'number' ? [] : {};
      at = at[key];
    }
  });
  return root;
};

/** The documented leaf properties of a body schema, as paths (arrays by their first item). */
function propertyPaths(schema: Json | undefined, prefix: (string | number)[] = [], depth = 0): (string | number)[][] {
  if (!schema || depth > 3) return [];
  const out: (string | number)[][] = [];
  if (schema.properties) {
    for (const [name, prop] of Object.entries<Json>(schema.properties)) {
      out.push([...prefix, name]);
      out.push(...propertyPaths(prop, [...prefix, name], depth + 1));
    }
  }
  if (schema.items) {
    out.push([...prefix, 0]);
    out.push(...propertyPaths(schema.items, [...prefix, 0], depth + 1));
  }
  return out;
}

/** A plausible value of a documented property, so the other properties of a body pass and the bad one is reached. */
function sample(schema: Json | undefined): unknown {
  if (!schema) return undefined;
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum.find((v: unknown) => v !== null);
  const type = [schema.type].flat().find((t) => t !== 'null');
  if (type === 'object') {
    return Object.fromEntries((schema.required ?? []).map((n: string) => [n, sample(schema.properties?.[n])]));
  }
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return Math.max(1, schema.minimum ?? 1);
  if (type === 'boolean') return false;
  if (schema.format === 'email') return 'someone@example.com';
  if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
  if (schema.format === 'date') return '2026-01-01';
  return 'x'.repeat(Math.max(6, schema.minLength ?? 0));
}

const jsonBody = (body: unknown) => ({ payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const BOUNDARY = '----bad-input';
const multipart = (field: string, text: string) => ({
  payload: Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="bad.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.from(text),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]),
  headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
});

/** A CSV with the given columns whose one line carries `value` in `column` and a plausible value elsewhere. */
function csv(columns: readonly string[], column: string, value: string, plausible: Record<string, string>) {
  const cell = (c: string) => (c === column ? value : (plausible[c] ?? '1'));
  return `${columns.join(',')}\n${columns.map(cell).join(',')}\n`;
}

describe.each(engines)('bad input on %s', (engine) => {
  let ctx: Ctx;
  let tokens: { admin: string; reseller: string };
  let doc: Json;
  /** Real values for path parameters, by path prefix, so a bad value in one parameter is the only thing wrong. */
  let known: { pattern: RegExp; name: string; value: string }[];
  /** Valid bodies of the entity calls (a schema's example; an update adds the key of an existing row). */
  const baselines = new Map<string, Json>();
  let sent = 0;
  /** Log lines of the app: a value the database refused shows there even when the answer is a 400. */
  const logs: string[] = [];

  beforeAll(async () => {
    ctx = await testApp(engine, { logger: { level: 'warn', stream: { write: (line: string) => logs.push(line) } } });
    await ctx.app.ready();
    tokens = { admin: await ctx.login('admin'), reseller: await ctx.login('northwind') };
    doc = ctx.app.swagger() as Json;
    const admin = ctx.client(tokens.admin);
    const first = async (url: string, key: string) => String((await admin.post(url, { page: { page: 0, size: 1 } })).json().items?.[0]?.[key] ?? 1);
    const subs = await admin.post('/portal/subscribers/paged', { page: { page: 0, size: 1 } });
    if (subs.statusCode !== 200) throw new Error(subs.body);
    const sub = subs.json().items[0];
    const localPlan = await first('/portal/pricing-plans/local/paged', 'id');
    const ruleId = String((await admin.post(`/portal/pricing-plans/local/${localPlan}/rules/paged`, {})).json().items?.[0]?.id ?? 1);
    const group = await admin.post('/portal/subscriber-groups', { name: 'Bad input group', kind: 'static' });
    if (group.statusCode !== 201) throw new Error(group.body);
    known = [
      { pattern: /subscriber-groups/, name: 'id', value: String(group.json().id) },
      { pattern: /subscriber|msisdn|summa|pre-paid-packages\/list/, name: 'id', value: String(sub.subscriberId) },
      { pattern: /./, name: 'subscriberId', value: String(sub.subscriberId) },
      { pattern: /./, name: 'imsi', value: sub.imsi },
      { pattern: /./, name: 'iccid', value: sub.iccid },
      { pattern: /./, name: 'country', value: 'DE' },
      { pattern: /./, name: 'resellerId', value: '1' },
      { pattern: /pricing-plans\/local/, name: 'id', value: localPlan },
      { pattern: /pricing-plans\/local/, name: 'ruleId', value: ruleId },
      { pattern: /pricing-plans\/international/, name: 'id', value: await first('/portal/pricing-plans/international/paged', 'id') },
      { pattern: /roaming-profiles/, name: 'id', value: await first('/portal/roaming-profiles/paged', 'id') },
      { pattern: /allowed-lists/, name: 'id', value: await first('/portal/allowed-lists/paged', 'allowedListId') },
      { pattern: /location-zones/, name: 'id', value: await first('/portal/zones/location-zones/paged', 'id') },
      { pattern: /destination-zones/, name: 'id', value: await first('/portal/zones/destination-zones/paged', 'id') },
      { pattern: /templates/, name: 'id', value: await first('/portal/pre-paid-packages/templates/paged', 'id') },
      { pattern: /roles/, name: 'id', value: await first('/portal/roles/paged', 'id') },
      { pattern: /accounts/, name: 'id', value: await first('/portal/accounts/paged', 'accountId') },
      { pattern: /user/, name: 'id', value: await first('/portal/user/paged', 'userId') },
      { pattern: /sponsors/, name: 'id', value: await first('/portal/sponsors/paged', 'id') },
      { pattern: /finance\/accounts/, name: 'code', value: '2010' },
    ];
    for (const schema of loadSchemas()) {
      const key = schema['x-entity'].key;
      const paged = apiRoutes(schema).find((r) => r.op === 'paged');
      const existing = paged ? (await admin.post(paged.path, { page: { page: 0, size: 1 } })).json().items?.[0] : undefined;
      for (const route of apiRoutes(schema)) {
        if (route.op === 'create') baselines.set(`${route.method} ${route.path}`, schema.examples?.[0] ?? {});
        if (route.op === 'update' && existing) baselines.set(`${route.method} ${route.path}`, { ...schema.examples?.[0], [key]: existing[key] });
      }
    }
  }, 120_000);
  afterAll(async () => ctx?.close());

  const operations = (): Operation[] =>
    Object.entries<Json>(doc.paths).flatMap(([path, ops]) => Object.entries<Json>(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));

  const paramValue = (path: string, name: string) => known.find((k) => k.name === name && k.pattern.test(path))?.value ?? '1';

  /** The requests that put each bad input where this operation takes one. */
  function casesOf({ method, path, op }: Operation): Case[] {
    const params: Json[] = op.parameters ?? [];
    const pathNames = params.filter((p) => p.in === 'path').map((p) => p.name as string);
    const url = (overrides: Record<string, string> = {}, query = '') =>
      path.replace(/\{(\w+)\}/g, (_m, name: string) => overrides[name] ?? encodeURIComponent(paramValue(path, name))) + query;
    const content = op.requestBody?.content ?? {};
    const bodySchema: Json | undefined = content['application/json']?.schema;
    const baseline = (baselines.get(`${method} ${path}`) ?? sample(bodySchema) ?? {}) as Json;
    const takesBody = method === 'POST' || method === 'PUT';
    const cases: Case[] = [];
    const add = (label: string, request: Partial<InjectOptions>) =>
      cases.push({ label, request: { method: method as never, url: url(), ...(takesBody ? jsonBody(baseline) : {}), ...request } });

    for (const name of pathNames) for (const v of URL_VALUES) add(`path ${name}=${v.slice(0, 20)}`, { url: url({ [name]: v }) });
    if (INPUTLESS.has(`${method} ${path}`)) return [{ label: 'as is', request: { method: method as never, url: url() } }];
    const queryNames = new Set([...params.filter((p) => p.in === 'query').map((p) => p.name as string), ...(method === 'GET' ? EXTRA_QUERY : [])]);
    for (const name of queryNames) for (const v of URL_VALUES) add(`query ${name}=${v.slice(0, 20)}`, { url: url({}, `?${name}=${v}`) });
    if (bodySchema) {
      for (const p of propertyPaths(bodySchema))
        for (const v of JSON_VALUES) add(`body ${p.join('.')}=${String(v).slice(0, 20)}`, jsonBody(set(baseline, p, v)));
    }
    if (takesBody && !content['multipart/form-data'] && (LIST_CALL.test(path) || bodySchema?.properties?.page || !bodySchema)) {
      // Every body a list call could read: calls that page without documenting their body included.
      const searchBy: unknown[] = [undefined, ...(bodySchema?.properties?.searchBy?.enum ?? [])];
      const lists: Json[] = [
        { page: { after: 'abc' } },
        { page: { after: NUL } },
        { page: { after: 2147483648 } },
        { page: { after: 1e308 } },
        { page: { after: -1 } },
        { page: { page: 1e308 } },
        { page: { page: 2147483648 } },
        { page: { size: 1e308 } },
        { page: { page: 'abc' } },
        { page: 'abc' },
        { searchKey: LONG },
        { searchKey: NUL },
        { searchKey: SURROGATE },
        { sortBy: NUL },
        { sortBy: LONG },
        { searchBy: LONG },
        ...searchBy.flatMap((by) => [IMSI, '89882390001234567890', '2147483648', '-1', '1e308'].map((searchKey) => ({ searchBy: by, searchKey }))),
      ];
      for (const body of lists) add(`list ${JSON.stringify(body).slice(0, 60)}`, jsonBody({ ...baseline, ...body }));
      add('body text', { payload: 'abc', headers: { 'content-type': 'application/json' } });
      add('body NUL', { payload: '"\\u0000"', headers: { 'content-type': 'application/json' } });
      add('body array', jsonBody([NUL]));
    }
    return cases;
  }

  /** Uploads whose cells carry the bad values, for the calls that read a CSV. */
  function uploads(): Case[] {
    const plan = paramValue('/portal/pricing-plans/local/{id}', 'id');
    const rule = { country: 'DE', mcc: '262', mnc: '01', dataRate: '0.1', startDate: '2026-01-01T00:00:00Z' };
    const subscriber = { iccid: paramValue('', 'iccid'), imsi: paramValue('', 'imsi'), status: 'active', name: 'Sensor' };
    const profile = { resellerId: '1', name: 'Imported profile', reference: 'REF-1', slots: '1', country: 'DE' };
    const subscriberColumns = [
      'iccid',
      'imsi',
      'status',
      'dailyLimitBytes',
      'qosThrottling',
      'pricingPlanId',
      'roamingProfileId',
      'accountId',
      'groupName',
      'name',
      'deviceType',
      'device',
      'imei',
      'apn',
    ];
    const cases: Case[] = [];
    for (const v of CSV_VALUES) {
      for (const column of RULE_FIELDS) {
        for (const confirm of ['', '?confirm=true']) {
          cases.push({
            label: `rules csv ${column}=${v.slice(0, 20)}${confirm}`,
            request: {
              method: 'POST',
              url: `/portal/pricing-plans/local/${plan}/by-csv${confirm}`,
              ...multipart('pricingPlanFile', csv(RULE_FIELDS, column, v, rule)),
            },
          });
        }
      }
      for (const column of subscriberColumns) {
        cases.push({
          label: `subscribers csv ${column}=${v.slice(0, 20)}`,
          request: { method: 'POST', url: '/portal/subscribers/bulk/csv?confirm=true', ...multipart('file', csv(subscriberColumns, column, v, subscriber)) },
        });
      }
      for (const column of IMPORT_COLUMNS) {
        cases.push({
          label: `profiles csv ${column}=${v.slice(0, 20)}`,
          request: {
            method: 'POST',
            url: '/portal/admin/import-roaming-profiles',
            payload: csv(IMPORT_COLUMNS, column, v, profile),
            headers: { 'content-type': 'text/csv' },
          },
        });
      }
    }
    // A bank wire's form fields, beside a valid proof.
    const proof = Buffer.from('%PDF-1.4\n%%EOF\n');
    for (const v of CSV_VALUES) {
      for (const field of ['amount', 'reference', 'description']) {
        const values: Record<string, string> = { amount: '100', reference: 'WIRE-000001', [field]: v };
        const boundary = '----bad-wire';
        const payload = Buffer.concat([
          ...Object.entries(values).map(([k, x]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${x}\r\n`)),
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p${v.slice(0, 3)}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
          ),
          proof,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]);
        cases.push({
          label: `bank wire ${field}=${v.slice(0, 20)}`,
          request: {
            method: 'POST',
            url: '/portal/payments/submit/bank-wire',
            payload,
            headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          },
        });
      }
    }
    // Bytes that are not UTF-8 at all: a lone surrogate as its CESU-8 bytes.
    const surrogate = Buffer.from([0xed, 0xa0, 0x80]).toString('latin1');
    cases.push({
      label: 'rules csv lone surrogate',
      request: {
        method: 'POST',
        url: `/portal/pricing-plans/local/${plan}/by-csv?confirm=true`,
        ...multipart('pricingPlanFile', `${RULE_FIELDS.join(',')}\nDE,262,01,0.1,2026-01-01T00:00:00Z\n`.replace('DE', `D${surrogate}`)),
      },
    });
    return cases;
  }

  /**
   * The values that reached the database and were refused there since the last call: the error handler turns them
   * into a 400, but each is a check missing at the edge.
   */
  function refusedByDatabase(what: string): string[] {
    const found = logs.splice(0).flatMap((line) => {
      const err = (JSON.parse(line) as { err?: { code?: string; message?: string } }).err;
      return err?.code && /^[0-9A-Z]{5}$/.test(err.code) ? [`${what} → the database refused a value: ${err.code} ${err.message?.slice(0, 150)}`] : [];
    });
    return [...new Set(found)];
  }

  /** Sends the cases a few at a time; answers the failures (5xx or a database message). */
  async function run(cases: Case[], token: string): Promise<string[]> {
    const failures: string[] = [];
    const queue = [...cases];
    const worker = async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const what = `${c.request.method} ${String(c.request.url).slice(0, 120)} [${c.label}]`;
        sent++;
        // A download that fails after its first bytes is cut short: the response never completes.
        const answer = ctx.app.inject({ ...c.request, headers: { ...c.request.headers, authorization: `Bearer ${token}` } }).catch((e: Error) => e);
        const res = await Promise.race([
          answer,
          new Promise<Error>((resolve) => setTimeout(() => resolve(new Error('no answer within 20 s')), 20_000).unref()),
        ]);
        if (res instanceof Error) {
          failures.push(`${what} → ${res.message}`);
          if (process.env.BAD_INPUT_TRACE) console.log(failures.at(-1));
          continue;
        }
        const body = res.statusCode >= 400 ? res.body : '';
        if (res.statusCode >= 500 || DATABASE_TEXT.test(body)) {
          failures.push(`${what} → ${res.statusCode} ${res.body.slice(0, 200)}`);
          if (process.env.BAD_INPUT_TRACE) console.log(failures.at(-1));
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    return failures;
  }

  it('answers no 5xx and no database message to any bad input of any operation', async () => {
    const started = Date.now();
    const failures: string[] = [];
    const only = process.env.BAD_INPUT_ONLY ? new RegExp(process.env.BAD_INPUT_ONLY) : undefined;
    for (const operation of operations()) {
      if (only && !only.test(`${operation.method} ${operation.path}`)) continue;
      if (process.env.BAD_INPUT_TRACE) console.log(`→ ${operation.method} ${operation.path}`);
      const cases = casesOf(operation);
      if (!cases.length) continue;
      // Calls only a reseller may make (the administrator is refused before any input is read) run as one.
      const probe = await ctx.app.inject({ ...cases[0].request, headers: { ...cases[0].request.headers, authorization: `Bearer ${tokens.admin}` } });
      const token = probe.statusCode === 403 ? tokens.reseller : tokens.admin;
      const t0 = Date.now();
      failures.push(...(await run(cases, token)));
      const refused = refusedByDatabase(`${operation.method} ${operation.path}`);
      if (process.env.BAD_INPUT_TRACE) for (const r of refused) console.log(r);
      failures.push(...refused);
      if (process.env.BAD_INPUT_TRACE)
        console.log(`${operation.method} ${operation.path}: ${cases.length} cases, ${Date.now() - t0} ms, ${failures.length} failures so far`);
    }
    failures.push(...(await run(uploads(), tokens.admin)), ...refusedByDatabase('uploads'));
    console.log(`bad input on ${engine}: ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, ${failures.length} failures`);
    expect(failures).toEqual([]);
  }, 600_000);
});
