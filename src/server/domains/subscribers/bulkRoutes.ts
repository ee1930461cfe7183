import { createHash } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import { LRUCache } from 'lru-cache';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import Papa from 'papaparse';
import { ListRequestError, normaliseListRequest, type EntitySchema } from '@shared/schema';
import type { EntityHooks } from '../../engine/routes';
import type { FieldError } from '@shared/wire';
import { EntityRepository } from '../../engine/repository';
import { fieldError, forbidden, HttpError, invalid } from '../../http/errors';
import { idSchema, isId, objectBody, searchTextSchema } from '../../http/input';
import { principalOf } from '../../http/guard';
import { can, type Principal } from '../../http/principal';
import type { JobKind, JobRecord } from '../../jobs/runner';
import { CSV_COLUMNS, DETAIL_FIELDS } from '@shared/subscriberCsv';
import { customName, customValueFromText } from '@shared/customFields';
import { customFieldsOf } from '../../engine/customFields';
import { applyValuesToMany, PER_ROW_ACTIONS } from './bulk/apply';
import { groupBy } from './bulk/groupBy';
import type { ItemOutcome } from '../../jobs/outcomes';
import {
  applyAction,
  applyActionToMany,
  BULK_ACTIONS,
  customUnchanged,
  detailsUnchanged,
  expireOperations,
  jobPrincipal,
  loadTargets,
  loadTargetsByKey,
  Lookups,
  outcomesOf,
  previewOf,
  reasonFor,
  resolveAction,
  UNCHANGED,
  type Applied,
  type ApplyContext,
  type BulkAction,
  type Resolved,
  type Target,
} from './bulk';
import { type Body } from './context';
import { uploadedText } from '../../http/upload';
import type { Database } from '../../db/types';
import { jsonRecords, slices } from '../../db/jsonRecords';
import { labOff } from '../labs/routes';
import { LabStates } from '../labs/switches';

export const BULK_JOB = 'subscribers.bulk';
export const CSV_JOB = 'subscribers.csv';
/** Subscribers one bulk action or one file may cover. */
export const BULK_MAX = 100000;
/** Lines of an upload applied per transaction: set-based, so the larger the chunk, the less each line costs. */
export const CSV_CHUNK = 2000;
/** Upload files are "less than 4 MB": this size is refused. */
export const CSV_MAX_BYTES = 4 * 1024 * 1024;

/** How long the check of a file stands for its confirmation by the same caller, in ms. */
export const CSV_CHECK_REUSE_MS = 5 * 60_000;
/** Upload lines per statement storing them, sent as one JSON value. */
const LINE_BATCH = 10000;

/** One change of an uploaded line: an action and its parameters. */
interface Change {
  action: BulkAction;
  params: Body;
}

/**
 * The bulk job: the action, checked again for each subscriber when it is applied. A chunk goes in one go
 * (caller and action resolved once, the subscribers changed set-based, network requests sent once it committed).
 */
export function bulkJobKind(db: Kysely<Database>, app: Pick<FastifyInstance, 'coreNetwork' | 'jobs'>): JobKind {
  const context = (trx: Kysely<Database>, principal: Principal, job: JobRecord, defer: (fn: () => void) => void): ApplyContext => ({
    db,
    trx,
    principal,
    core: app.coreNetwork,
    subject: `job:${job.id}`,
    defer,
    job: { id: job.id, runner: app.jobs },
    resend: job.params.resend === true,
  });
  const applyTo = async (trx: Kysely<Database>, keys: readonly string[], job: JobRecord, defer: (fn: () => void) => void) => {
    const principal = await jobPrincipal(trx, job.userId);
    const resolved = await resolveAction(trx, principal, job.params.action, job.params.params);
    const ids = keys.map(Number);
    const outcomes = outcomesOf(ids, await applyActionToMany(context(trx, principal, job, defer), resolved, ids));
    return new Map([...outcomes].map(([id, outcome]) => [String(id), outcome]));
  };
  return {
    async apply(trx, key, job, afterCommit) {
      return (await applyTo(trx, [key], job, afterCommit)).get(key);
    },
    applyChunk: applyTo,
    async retry(retryDb, principal, job, failedKeys) {
      // The bulk call's own checks: its privilege, the action's sub-privilege, parameters still usable.
      if (!principal.isAdmin && !can(principal, 'Subscribers')) throw forbidden();
      await resolveAction(retryDb, principal, job.params.action, job.params.params);
      return { keys: await visibleKeys(retryDb, principal, failedKeys), params: { ...job.params, resend: true } };
    },
    expire: (trx, job, keys) => expireOperations(trx, job.id, keys),
  };
}

/** The keys (subscriber ids) among `keys` the caller may see now. */
async function visibleKeys(db: Kysely<Database>, principal: Principal, keys: readonly string[]): Promise<string[]> {
  const visible = await loadTargets(db, principal, keys.map(Number));
  return keys.filter((key) => visible.has(Number(key)));
}

/** Stores the changes of each line beside the job: one statement per ten thousand lines. */
async function storeLines(trx: Kysely<Database>, jobId: number, lines: readonly { subscriberId: number; changes: Change[] }[]) {
  const rows = lines.map((line) => ({ subscriber_id: line.subscriberId, changes: line.changes }));
  for (const slice of slices(rows, LINE_BATCH))
    await sql`insert into subscriber_upload_line (job_id, subscriber_id, changes)
      select ${jobId}::integer, v.subscriber_id, v.changes
      from ${jsonRecords(slice, { subscriber_id: 'integer', changes: 'jsonb' })}`.execute(trx);
}

const linesOf = async (db: Kysely<Database>, jobId: number, subscriberIds: readonly number[]) => {
  const rows = await db
    .selectFrom('subscriberUploadLine')
    .select(['subscriberId', 'changes'])
    .where('jobId', '=', jobId)
    .where('subscriberId', 'in', subscriberIds)
    .execute();
  return rows.map((row) => ({
    subscriberId: Number(row.subscriberId),
    changes: (typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes) as Change[],
  }));
};

/**
 * The upload job: each subscriber's changes from its line, those through the core network last. A line changes
 * all its columns or none; it waits for every network answer its changes asked for, and fails at the first refusal.
 */
export function csvJobKind(db: Kysely<Database>, app: Pick<FastifyInstance, 'coreNetwork' | 'jobs'>): JobKind {
  return {
    /**
     * A chunk of lines at once, as `apply` does each. Their names, details and groups (values that differ per line)
     * go first, all together: each subscriber's row rewritten once, by one UPDATE … FROM per set of columns, with
     * their audit entries and operation records in one statement each. Then their other changes, first ones, then
     * second ones and so on, each round grouped by change. A refusal rolls the chunk back (thrown), and the runner
     * applies its lines one by one, each failing or passing on its own.
     */
    chunk: CSV_CHUNK,
    async applyChunk(trx, keys, job, afterCommit) {
      const principal = await jobPrincipal(trx, job.userId);
      const lines = await linesOf(trx, job.id, keys.map(Number));
      // Network requests are handed on only once the whole chunk went through: a refusal throws them away with it.
      const held: (() => void)[] = [];
      const ctx: ApplyContext = {
        db,
        trx,
        principal,
        core: app.coreNetwork,
        subject: `job:${job.id}`,
        defer: (fn) => held.push(fn),
        job: { id: job.id, runner: app.jobs },
        resend: job.params.resend === true,
      };
      const resolvedCache = new Map<string, Promise<Resolved>>();
      const resolve = (change: Change) => {
        const cacheKey = JSON.stringify([change.action, change.params]);
        if (!resolvedCache.has(cacheKey)) resolvedCache.set(cacheKey, resolveAction(trx, principal, change.action, change.params));
        return resolvedCache.get(cacheKey)!;
      };
      const changed = new Set<number>();
      const answers = new Map<number, number>();
      const take = ({ refused, changed: ids, waiting }: Applied) => {
        const [refusal] = refused.values();
        if (refusal) throw refusal;
        for (const id of ids) changed.add(id);
        for (const id of waiting) answers.set(id, (answers.get(id) ?? 0) + 1);
      };
      // The values of every line (they touch columns no other change reads), in the order of the lines' changes.
      const rounds = Math.max(0, ...lines.map((line) => line.changes.length));
      const perRow: { subscriberId: number; resolved: Resolved }[] = [];
      for (let round = 0; round < rounds; round++)
        for (const line of lines) {
          const change = line.changes[round];
          if (change && PER_ROW_ACTIONS.has(change.action)) perRow.push({ subscriberId: line.subscriberId, resolved: await resolve(change) });
        }
      if (perRow.length) take(await applyValuesToMany(ctx, perRow));
      for (let round = 0; round < rounds; round++) {
        const items: { subscriberId: number; change: Change; resolved: Resolved }[] = [];
        for (const line of lines) {
          const change = line.changes[round];
          if (change && !PER_ROW_ACTIONS.has(change.action)) items.push({ subscriberId: line.subscriberId, change, resolved: await resolve(change) });
        }
        const shared = groupBy(items, (i) => JSON.stringify([i.change.action, i.change.params]));
        for (const group of shared.values())
          take(
            await applyActionToMany(
              ctx,
              group[0].resolved,
              group.map((i) => i.subscriberId),
            ),
          );
      }
      for (const fn of held) afterCommit(fn);
      const outcomes = new Map<string, ItemOutcome>();
      for (const key of keys) {
        const id = Number(key);
        const waiting = answers.get(id);
        if (waiting) outcomes.set(key, { status: 'waiting', answers: waiting });
        else if (!changed.has(id)) outcomes.set(key, { status: 'skipped', messageId: UNCHANGED });
      }
      return outcomes;
    },
    async apply(trx, key, job, afterCommit) {
      const principal = await jobPrincipal(trx, job.userId);
      const [line] = await linesOf(trx, job.id, [Number(key)]);
      const ctx: ApplyContext = {
        db,
        trx,
        principal,
        core: app.coreNetwork,
        subject: `job:${job.id}`,
        defer: afterCommit,
        job: { id: job.id, runner: app.jobs },
        resend: job.params.resend === true,
      };
      let changed = false;
      let answers = 0;
      for (const change of line?.changes ?? []) {
        const resolved = await resolveAction(trx, principal, change.action, change.params);
        const applied = await applyAction(ctx, resolved, Number(key));
        changed ||= applied.changed.length > 0;
        answers += applied.waiting.size;
      }
      if (answers) return { status: 'waiting', answers };
      return changed ? undefined : { status: 'skipped', messageId: UNCHANGED };
    },
    async retry(retryDb, principal, job, failedKeys) {
      if (!principal.isAdmin && !can(principal, 'Subscribers')) throw forbidden();
      // Under the upload's own lab, read afresh: a tenant that switched the CSV update off runs none again.
      if (!(await new LabStates(retryDb, 0).of(principal.resellerPath)).subscriberCsvUpdate.enabled) throw labOff('subscriberCsvUpdate');
      const keys = await visibleKeys(retryDb, principal, failedKeys);
      const lines = await linesOf(retryDb, job.id, keys.map(Number));
      // Each change is checked again as the upload checked it (a move needs MoveSubscribers, a plan must still be usable).
      const changes = new Map(lines.flatMap((line) => line.changes.map((c) => [JSON.stringify(c), c] as const)));
      for (const change of changes.values()) await resolveAction(retryDb, principal, change.action, change.params);
      return {
        keys,
        params: { ...job.params, resend: true },
        prepare: (trx, jobId) => storeLines(trx, jobId, lines),
      };
    },
    expire: (trx, job, keys) => expireOperations(trx, job.id, keys),
  };
}

/**
 * Bulk actions on subscribers as durable jobs: a preview (nothing written), the job itself, and a CSV upload
 * of changes in the columns of the subscriber export.
 */
export async function registerSubscriberBulkRoutes(
  app: FastifyInstance,
  db: Kysely<Database>,
  schema: EntitySchema,
  /** The list's own narrowing of a search (a group's subscribers), so a search selection names what the grid shows. */
  beforeList?: EntityHooks['beforeList'],
) {
  const tags = ['subscribers'];
  const repo = new EntityRepository(db, schema);
  const config = { privilege: 'Subscribers' };
  app.jobs.register(BULK_JOB, bulkJobKind(db, app));
  app.jobs.register(CSV_JOB, csvJobKind(db, app));

  /** The subscriber ids a selection names now: the listed ids, or every visible row of the grid's search. */
  async function selectionIds(principal: Principal, selection: unknown): Promise<number[]> {
    const sel = (typeof selection === 'object' && selection !== null && !Array.isArray(selection) ? selection : {}) as Body;
    if (Array.isArray(sel.ids) && sel.search === undefined) {
      if (!sel.ids.length || sel.ids.some((id) => !isId(id))) throw invalid([fieldError('selection.ids', 'type', 'validation.subscriberId.required')]);
      if (sel.ids.length > BULK_MAX) throw invalid([fieldError('selection.ids', 'maxItems', 'validation.bulk.tooMany')]);
      return [...new Set(sel.ids as number[])];
    }
    if (typeof sel.search === 'object' && sel.search !== null && sel.ids === undefined) {
      const { searchBy, searchKey } = sel.search as Body;
      const customDefs = await customFieldsOf(db).forPath('subscriber', principal.resellerPath);
      let req;
      try {
        req = normaliseListRequest(schema, { searchBy, searchKey } as never, principal.isAdmin, customDefs);
      } catch (e) {
        if (e instanceof ListRequestError) throw invalid([fieldError(`selection.search.${e.field}`, e.rule, e.messageId)]);
        throw e;
      }
      if (beforeList) req = await beforeList({ req, principal, db, custom: customDefs });
      const rows = await db
        .selectFrom(repo.exportQuery(req, { principal }).as('q'))
        .select('q.subscriberId')
        .limit(BULK_MAX + 1)
        .execute();
      if (rows.length > BULK_MAX) throw invalid([fieldError('selection', 'maxItems', 'validation.bulk.tooMany')]);
      return rows.map((r) => Number(r.subscriberId));
    }
    throw invalid([fieldError('selection', 'oneOf', 'validation.bulk.selection')]);
  }

  const bodySchema = {
    // The action and the shape of the selection here; each action's parameters, and which selection, in resolveAction
    // and selectionIds.
    ...objectBody(
      {
        action: { type: 'string', enum: [...BULK_ACTIONS], errorMessage: 'validation.bulk.action' },
        params: { type: 'object', description: "The action's parameters (see the description)" },
        selection: {
          type: 'object',
          properties: {
            ids: { type: 'array', items: idSchema(), errorMessage: 'validation.subscriberId.required' },
            search: { type: 'object', properties: { searchBy: { type: ['string', 'null'], maxLength: 100 }, searchKey: searchTextSchema() } },
          },
          errorMessage: { type: 'validation.bulk.selection' },
        },
      },
      ['action'],
      { action: 'validation.bulk.action' },
    ),
  };
  const paramsText =
    'Parameters: `daily-limit` `{ dailyLimitBytes, qosThrottling? }`, `qos` `{ qosThrottling }`, `pricing-plan` `{ pricingPlanId }`, ' +
    '`roaming-profile` `{ roamingProfileId }`, `move` `{ accountId }` (needs MoveSubscribers), `group-name` `{ groupName }`, ' +
    "`details` `{ name?, deviceType?, device?, imei?, apn? }` (the subscriber page's rules), `custom` `{ custom: { <key>: value } }` (the caller's " +
    'custom fields; null removes a value); `suspend` and `reactivate` none.';

  async function checked(request: FastifyRequest) {
    const body = request.body as Body;
    const principal = principalOf(request);
    const resolved = await resolveAction(db, principal, body.action, body.params);
    const ids = await selectionIds(principal, body.selection);
    return { principal, resolved, ids };
  }

  app.post(
    '/portal/subscribers/bulk/preview',
    {
      config,
      schema: {
        tags,
        body: bodySchema,
        summary: 'What a bulk action would do: how many subscribers change, and which cannot or need not, with the reason (nothing is written)',
        description: `Body \`{ action, params, selection: { ids } | { search: { searchBy, searchKey } } }\`. ${paramsText} The answer: \`{ total, willChange, reasons: [{ messageId, message, count }], rows }\` (the first 50 that will not change).`,
      },
    },
    async (request) => {
      const { principal, resolved, ids } = await checked(request);
      return previewOf(resolved, ids, await loadTargets(db, principal, ids));
    },
  );

  app.post(
    '/portal/subscribers/bulk',
    {
      config,
      schema: {
        tags,
        body: bodySchema,
        summary: 'Start a bulk action as a background job (202 with the job id)',
        description:
          "Same body as the preview. The job's items are the subscribers the selection names now; each is checked again and applied with its audit entry " +
          "(succeeded), left alone when already so (skipped), or refused with its reason (failed). A suspend or reactivate, and a roaming profile's HSS write, " +
          'count when the core network answers: the job waits for the answers (`waiting`) and ends `done`, or `failed` when every subscriber failed. ' +
          `Reasons: \`GET /portal/jobs/{id}/items\` and \`/failures\` (CSV); \`POST /portal/jobs/{id}/retry\` runs the failed again. ${paramsText}`,
      },
    },
    async (request, reply) => {
      const { principal, resolved, ids } = await checked(request);
      const jobId = await app.jobs.enqueue({
        kind: BULK_JOB,
        userId: principal.userId,
        resellerId: principal.resellerId,
        keys: ids.map(String),
        params: { action: resolved.action, params: resolved.params },
      });
      return reply.code(202).send({ jobId, total: ids.length });
    },
  );

  /** Reads and checks an upload; writes nothing. */
  async function checkUpload(principal: Principal, text: string) {
    const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy' });
    const header = (parsed.meta.fields ?? []).map((h) => h.trim());
    const keyColumn = header.includes('iccid') ? 'iccid' : header.includes('imsi') ? 'imsi' : undefined;
    if (!keyColumn || !parsed.data.length) throw invalid([fieldError('file', 'columns', 'validation.csv.key')]);
    // The caller's custom fields, as its export heads them (`custom.<key>`).
    const customDefs = await customFieldsOf(db).forPath('subscriber', principal.resellerPath);
    const known = new Set([...repo.exportFields(), ...CSV_COLUMNS, ...customDefs.map(customName)]);
    const unknown = header.filter((h) => !known.has(h));
    if (unknown.length) throw invalid(unknown.map((h) => fieldError(`file.${h}`, 'columns', 'validation.csv.columns')));
    const cell = (row: Record<string, string>, name: string) => {
      const raw = (row[name] ?? '').trim();
      // The export guards text a spreadsheet would run as a formula with an apostrophe: take it off again.
      return /^'[=+\-@]/.test(raw) ? raw.slice(1) : raw;
    };
    // The subscribers it names, by ICCID or IMSI, among those the caller may see.
    const targets = await loadTargetsByKey(db, principal, keyColumn, [...new Set(parsed.data.map((row) => cell(row, keyColumn)).filter(Boolean))]);
    // Each distinct change checked once; what its check looks up in the database, once per distinct value.
    const lookups = new Lookups();
    const resolvedCache = new Map<string, Promise<Resolved | FieldError[]>>();
    const resolve = (action: BulkAction, params: Body) => {
      const cacheKey = JSON.stringify([action, params]);
      if (!resolvedCache.has(cacheKey)) {
        resolvedCache.set(
          cacheKey,
          resolveAction(db, principal, action, params, lookups).catch((e) => {
            if (e instanceof HttpError) return e.fields ?? [fieldError('', e.code, e.statusCode === 403 ? 'error.forbidden' : 'error.validation')];
            throw e;
          }),
        );
      }
      return resolvedCache.get(cacheKey)!;
    };
    const lines: Record<string, Change[]> = {};
    const rejected: { line: number; values: Record<string, string>; fields: FieldError[] }[] = [];
    const seen = new Set<number>();
    let unchanged = 0;
    for (const [i, row] of parsed.data.entries()) {
      const line = i + 2;
      const errors: FieldError[] = [];
      const t = targets.get(cell(row, keyColumn));
      if (!t) errors.push(fieldError(keyColumn, 'exists', 'validation.csv.noSubscriber'));
      else if (seen.has(t.subscriberId)) errors.push(fieldError(keyColumn, 'unique', 'validation.csv.duplicate'));
      const wanted: Change[] = [];
      const number = (name: string) => {
        const v = cell(row, name);
        if (!v) return undefined;
        return /^\d{1,15}$/.test(v) ? Number(v) : v;
      };
      const status = cell(row, 'status');
      if (status && status !== 'active' && status !== 'suspended') errors.push(fieldError('status', 'enum', 'validation.status.invalid'));
      const limit = number('dailyLimitBytes');
      const qos = cell(row, 'qosThrottling') || undefined;
      if (limit !== undefined) wanted.push({ action: 'daily-limit', params: { dailyLimitBytes: limit, ...(qos ? { qosThrottling: qos } : {}) } });
      else if (qos) wanted.push({ action: 'qos', params: { qosThrottling: qos } });
      const plan = number('pricingPlanId');
      if (plan !== undefined) wanted.push({ action: 'pricing-plan', params: { pricingPlanId: plan } });
      const group = cell(row, 'groupName');
      if (group) wanted.push({ action: 'group-name', params: { groupName: group } });
      const details = Object.fromEntries(DETAIL_FIELDS.map((f) => [f, cell(row, f)]).filter(([, v]) => v));
      if (Object.keys(details).length) wanted.push({ action: 'details', params: details });
      const account = number('accountId');
      if (account !== undefined) wanted.push({ action: 'move', params: { accountId: account } });
      const profile = number('roamingProfileId');
      if (profile !== undefined) wanted.push({ action: 'roaming-profile', params: { roamingProfileId: profile } });
      const custom = Object.fromEntries(
        customDefs.flatMap((d) => {
          const text = cell(row, customName(d));
          return text ? [[d.key, customValueFromText(d, text)]] : [];
        }),
      );
      if (Object.keys(custom).length) wanted.push({ action: 'custom', params: { custom } });
      if (status === 'active' || status === 'suspended') wanted.push({ action: status === 'active' ? 'reactivate' : 'suspend', params: {} });
      const changes: Change[] = [];
      for (const change of wanted) {
        if (t && sameAsCurrent(change, t)) continue; // a column sent back as exported: no check, no change
        const resolved = await resolve(change.action, change.params);
        if (Array.isArray(resolved)) {
          errors.push(...resolved.map((f) => ({ ...f, field: f.field.replace(/^params\./, '') || columnOf(change) })));
          continue;
        }
        if (!t) continue;
        const reason = reasonFor(resolved, t);
        if (reason === UNCHANGED) continue;
        if (reason) errors.push(fieldError(columnOf(change), reason.split('.').at(-1)!, reason));
        else changes.push(change);
      }
      if (errors.length) rejected.push({ line, values: row, fields: errors });
      else if (!changes.length) unchanged += 1;
      else {
        seen.add(t!.subscriberId);
        lines[t!.subscriberId] = changes;
      }
    }
    return { total: parsed.data.length, valid: Object.keys(lines).length, unchanged, rejected, lines };
  }

  /**
   * Checks answered lately, by caller (as loaded for the request: its privileges included) and file, each kept for
   * the confirmation of the same file by the same caller, once. Sound because the job checks every change of every
   * line again, as it applies it, against the subscriber then and the caller's privileges then; the confirmation of
   * a file not checked just before (or checked on another server process) checks it in full.
   */
  const lastChecks = new LRUCache<string, Awaited<ReturnType<typeof checkUpload>>>({
    // Counted in lines: a few files of the largest size at most.
    maxSize: 4 * BULK_MAX,
    sizeCalculation: (checked) => Math.max(1, checked.total),
    ttl: CSV_CHECK_REUSE_MS,
  });
  const checkKey = (principal: Principal, text: string) => createHash('sha256').update(JSON.stringify(principal)).update('\0').update(text).digest('hex');

  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: CSV_MAX_BYTES - 1, files: 1, fields: 0 } });
    const refuse = (rule: string, messageId: string) => invalid([fieldError('file', rule, messageId)]);

    scope.post(
      '/portal/subscribers/bulk/csv',
      {
        config: { ...config, lab: 'subscriberCsvUpdate' },
        schema: {
          tags,
          consumes: ['multipart/form-data'],
          querystring: { type: 'object', properties: { confirm: { type: 'boolean' } } },
          summary: 'Change subscribers from a CSV file (multipart field `file`, less than 4 MB)',
          description:
            'Columns: `iccid` or `imsi`, and any of `status`, `dailyLimitBytes`, `qosThrottling`, `pricingPlanId`, `roamingProfileId`, `accountId`, ' +
            "`groupName`, `name`, `deviceType`, `device`, `imei`, `apn`, `custom.<key>` for each of the caller's custom fields; the other columns of the subscriber export are ignored, so an export can be edited and sent back. An empty cell changes nothing. " +
            'Without `confirm=true` the answer lists every rejected line with its reasons and nothing is written; with it, the valid lines become a job (202). ' +
            'The confirmation of a file the caller checked in the last five minutes takes that check (each line is checked again as the job applies it). ' +
            "Answers 403 LAB_OFF while the lab subscriberCsvUpdate is off for the caller's tenant.",
        },
      },
      async (request, reply) => {
        const { text, filename } = await uploadedText(request, 'file');
        const principal = principalOf(request);
        const confirm = (request.query as { confirm?: boolean }).confirm === true;
        const key = checkKey(principal, text);
        const checked = (confirm && lastChecks.get(key)) || (await checkUpload(principal, text));
        const { lines, ...summary } = checked;
        if (!confirm) {
          lastChecks.set(key, checked);
          return summary;
        }
        lastChecks.delete(key);
        if (!summary.valid) throw refuse('rows', 'validation.csv.noValidLines');
        // The changes of each line wait beside the job, which carries only the subscriber ids.
        const jobId = await db.transaction().execute(async (trx) => {
          const id = await app.jobs.enqueue(
            { kind: CSV_JOB, userId: principal.userId, resellerId: principal.resellerId, keys: Object.keys(lines), params: { file: filename } },
            trx as never,
          );
          await storeLines(
            trx,
            id,
            Object.entries(lines).map(([subscriberId, changes]) => ({ subscriberId: Number(subscriberId), changes })),
          );
          return id;
        });
        return reply.code(202).send({ ...summary, jobId });
      },
    );
  });
}

/** Whether a change only repeats what the subscriber has (so it needs no privilege and no check). */
function sameAsCurrent({ action, params: p }: Change, t: Target): boolean {
  switch (action) {
    case 'suspend':
      return t.status === 'suspended';
    case 'reactivate':
      return t.status === 'active';
    case 'daily-limit':
      return t.dailyLimitBytes === p.dailyLimitBytes && (p.qosThrottling === undefined || t.qosThrottling === p.qosThrottling);
    case 'qos':
      return t.qosThrottling === p.qosThrottling;
    case 'pricing-plan':
      return t.pricingPlanId === p.pricingPlanId;
    case 'roaming-profile':
      return t.roamingProfileId === p.roamingProfileId;
    case 'move':
      return t.accountId === p.accountId;
    case 'group-name':
      return t.groupName === p.groupName;
    case 'details':
      return detailsUnchanged(p, t);
    case 'custom':
      return customUnchanged(p, t);
  }
}

/** The upload column a change comes from (the first of its details for `details`, of its values for `custom`). */
function columnOf({ action, params }: Change): string {
  if (action === 'details') return Object.keys(params)[0];
  if (action === 'custom') return customName({ key: Object.keys(params.custom as Body)[0] });
  return (
    {
      suspend: 'status',
      reactivate: 'status',
      'daily-limit': 'dailyLimitBytes',
      qos: 'qosThrottling',
      'pricing-plan': 'pricingPlanId',
      'roaming-profile': 'roamingProfileId',
      move: 'accountId',
      'group-name': 'groupName',
    } as const
  )[action];
}
