import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { FieldError } from '@shared/wire';
import type { MigrationPlatform } from '../../adapters/migration';
import { fieldError, forbidden, invalid } from '../../http/errors';
import { idSchema, isId, objectBody } from '../../http/input';
import { principalOf } from '../../http/guard';
import { can, type Principal } from '../../http/principal';
import type { JobKind } from '../../jobs/runner';
import { auditSubscriber } from './audit';
import {
  applyActionToMany,
  checkRange,
  jobPrincipal,
  loadTargets,
  outcomesOf,
  rangeIds,
  RANGE_MAX,
  reasonFor,
  resolveAction,
  UNCHANGED,
  type ApplyContext,
  type Range,
  type Resolved,
} from './bulk';
import { BULK_JOB } from './bulkRoutes';
import { requirePanel, type Body } from './context';
import { changeSubscriber } from './operationRoutes';
import type { Database } from '../../db/types';

export const MIGRATION_JOB = 'subscribers.migrate';

/** An action's parameter errors named as the call's own fields (`params.accountId` is `accountId` here). */
async function resolveFlat(db: Kysely<Database>, principal: Principal, action: string, params: Body): Promise<Resolved> {
  try {
    return await resolveAction(db, principal, action, params);
  } catch (e) {
    const fields = (e as { fields?: FieldError[] }).fields;
    if (fields) for (const f of fields) f.field = f.field.replace(/^params\./, '');
    throw e;
  }
}

/** The caller's subscribers of a range, refused when there are none or more than the maximum. */
async function idsInRange(db: Kysely<Database>, principal: Principal, range: Range, sourceRoamingProfileId?: number) {
  const ids = await rangeIds(db, principal, range, RANGE_MAX + 1, sourceRoamingProfileId);
  if (ids.length > RANGE_MAX) throw invalid([fieldError('range', 'maximum', 'validation.range.max')]);
  if (!ids.length) throw invalid([fieldError('range', 'empty', 'validation.range.empty')]);
  return ids;
}

/**
 * Applies one action to every listed subscriber in one transaction, or to none: each subscriber is locked and
 * checked first; if any cannot take it, the answer names them per reason and nothing is written. Network
 * requests (the HSS writes) go out once the transaction has committed. A change the network carries out is
 * recorded as a job of the subscribers (`jobId`), stored with the change: each changed subscriber waits for the
 * network's answer, the others are skipped (already so), and it is followed and retried like a bulk job.
 */
async function allOrNothing(app: FastifyInstance, db: Kysely<Database>, principal: Principal, resolved: Resolved, ids: number[], field: string, params?: Body) {
  const sends: (() => void)[] = [];
  const result = await db.transaction().execute(async (trx) => {
    const targets = await loadTargets(trx, principal, ids, true);
    const refused = new Map<string, number[]>();
    let unchanged = 0;
    for (const id of ids) {
      const t = targets.get(id);
      const reason = t ? reasonFor(resolved, t) : 'error.notFound';
      if (reason === UNCHANGED) unchanged += 1;
      else if (reason) refused.set(reason, [...(refused.get(reason) ?? []), id]);
    }
    if (refused.size) {
      // One entry per reason, naming the subscribers (the first 100) and how many there are.
      throw invalid(
        [...refused].map(([messageId, which]) => ({
          ...fieldError(field, messageId.split('.').at(-1)!, messageId),
          subscriberIds: which.slice(0, 100),
          count: which.length,
        })),
      );
    }
    const keys = ids.map(String);
    const jobParams = { action: resolved.action, params: resolved.params, ...params };
    const jobId = params
      ? await app.jobs.begin({ kind: BULK_JOB, userId: principal.userId, resellerId: principal.resellerId, keys, params: jobParams }, trx)
      : undefined;
    const ctx: ApplyContext = {
      db,
      trx,
      principal,
      core: app.coreNetwork,
      subject: jobId ? `job:${jobId}` : `${resolved.action}:${principal.username}`,
      defer: (send: () => void) => sends.push(send),
      job: jobId ? { id: jobId, runner: app.jobs } : undefined,
    };
    const applied = await applyActionToMany(ctx, resolved, ids);
    if (jobId) await app.jobs.applied(trx, jobId, keys, new Map([...outcomesOf(ids, applied)].map(([id, o]) => [String(id), o])));
    // In the range's order, as the subscribers were given.
    return { total: ids.length, changed: applied.changed.length, unchanged, subscriberIds: applied.changed, ...(jobId ? { jobId } : {}) };
  });
  for (const send of sends) send();
  return result;
}

/** Whether the caller may migrate subscribers: Subscribers and the MigrationStatus panel (the administrator holds all). */
const mayMigrate = (principal: Principal) => principal.isAdmin || (can(principal, 'Subscribers') && can(principal, 'SubscriberDetails', 'MigrationStatus'));

/**
 * The migration job: each subscriber goes from pending to success or error through the migration platform. A
 * refusal fails the item with the platform's words and keeps the subscriber's `error` status and its audit entry.
 */
export function migrationJobKind(platform: MigrationPlatform): JobKind {
  return {
    async apply(trx, key, job) {
      const principal = await jobPrincipal(trx, job.userId);
      const id = Number(key);
      const t = (await loadTargets(trx, principal, [id], true)).get(id);
      if (!t) throw invalid([fieldError('subscriberId', 'exists', 'error.notFound')]);
      const { migrationStatus } = await trx.selectFrom('subscriber').select('migrationStatus').where('subscriberId', '=', id).executeTakeFirstOrThrow();
      if (migrationStatus !== 'pending') return { status: 'skipped', messageId: UNCHANGED }; // settled already
      const answer = await platform.migrate({ subscriberId: id, imsi: t.imsi, iccid: t.iccid });
      const status = answer.ok ? 'success' : 'error';
      await trx.updateTable('subscriber').set({ migrationStatus: status }).where('subscriberId', '=', id).execute();
      await auditSubscriber(
        trx,
        principal,
        id,
        'migration',
        { migrationStatus: 'pending' },
        { migrationStatus: status, ...(answer.ok ? {} : { migrationError: answer.detail ?? null }) },
      );
      return answer.ok ? undefined : { status: 'failed', messageId: 'job.reason.migrationRefused', detail: answer.detail };
    },
    async retry(db, principal, _job, failedKeys) {
      if (!mayMigrate(principal)) throw forbidden();
      const visible = await loadTargets(db, principal, failedKeys.map(Number));
      const keys = failedKeys.filter((key) => visible.has(Number(key)));
      return {
        keys,
        // Pending again at once, as a range migration starts.
        async prepare(trx) {
          for (const key of keys) await changeSubscriber(trx, Number(key), principal, 'migration', { migrationStatus: 'pending' });
        },
      };
    },
  };
}

/** Range calls: a roaming profile for a range, moving subscribers to another account, migrating a range. */
export function registerSubscriberRangeRoutes(app: FastifyInstance, db: Kysely<Database>) {
  const tags = ['subscribers'];
  // Ends of a range: digits whose pattern depends on the range type, checked by checkRange.
  const rangeEnd = { type: ['string', 'integer', 'null'], maxLength: 50 };
  const rangeSchema = objectBody({ rangeStart: rangeEnd, rangeEnd });
  const rangeType = { type: 'string', enum: ['SUBSCRIBER_ID', 'ICCID', 'IMSI'], errorMessage: 'validation.rangeType.invalid' };

  app.post(
    '/portal/subscribers/roaming-profile',
    {
      config: { privilege: 'Subscribers' },
      schema: {
        tags,
        summary: `Give the subscribers of a range (at most ${RANGE_MAX}) an approved roaming profile, all or none`,
        description:
          'Body `{ roamingProfileId, range: { rangeStart, rangeEnd }, rangeType?: SUBSCRIBER_ID | ICCID | IMSI, sourceRoamingProfileId? }`. ' +
          "Only the caller's subscribers in the range count (with `sourceRoamingProfileId`, only those on that profile). A multi-IMSI subscriber " +
          "cannot take a single-IMSI profile: the answer names them and nothing changes. Each change is in the subscriber's audit log; " +
          'the HSS writes go out after the change is stored, and their answers are the outcome of the job the answer names (`jobId`: a ' +
          'changed subscriber succeeds or fails as the HSS answers, one already on the profile is skipped; `POST /portal/jobs/{id}/retry` writes the failed again).',
        body: objectBody(
          {
            roamingProfileId: { ...idSchema({}, 'type'), errorMessage: 'validation.roamingProfile.required' },
            range: rangeSchema,
            rangeType,
            sourceRoamingProfileId: { ...idSchema({}, 'type'), type: ['integer', 'null'], errorMessage: 'validation.roamingProfile.unknown' },
          },
          ['roamingProfileId'],
          { roamingProfileId: 'validation.roamingProfile.required' },
        ),
      },
    },
    async (request: FastifyRequest) => {
      const body = request.body as Body;
      const errors: FieldError[] = [];
      const range = checkRange(body.range, body.rangeType, errors);
      const source = body.sourceRoamingProfileId;
      if (source !== undefined && source !== null && !isId(source))
        errors.push(fieldError('sourceRoamingProfileId', 'type', 'validation.roamingProfile.unknown'));
      if (errors.length) throw invalid(errors);
      const principal = principalOf(request);
      const resolved = await resolveFlat(db, principal, 'roaming-profile', { roamingProfileId: body.roamingProfileId });
      const ids = await idsInRange(db, principal, range!, (source ?? undefined) as number | undefined);
      // The job names its range, as the call gave it.
      const named = { range: { ...range!, ...(source ? { sourceRoamingProfileId: source } : {}) } };
      return { roamingProfileId: resolved.profile!.id, ...(await allOrNothing(app, db, principal, resolved, ids, 'roamingProfileId', named)) };
    },
  );

  app.post(
    '/portal/subscribers/move',
    {
      config: { privilege: 'MoveSubscribers' },
      schema: {
        tags,
        summary: `Move subscribers (ids, or a range of at most ${RANGE_MAX}) to another account the caller can see, all or none`,
        description:
          'Body `{ accountId, subscriberIds?: number[] }` or `{ accountId, range: { rangeStart, rangeEnd }, rangeType? }`. ' +
          "The subscriber takes the account's reseller; its pricing plan and roaming profile must be usable there.",
        body: objectBody(
          {
            accountId: { ...idSchema({}, 'type'), errorMessage: 'validation.move.account' },
            subscriberIds: {
              type: 'array',
              items: idSchema({}, 'type'),
              description: `At most ${RANGE_MAX}`,
              errorMessage: 'validation.subscriberId.required',
            },
            range: rangeSchema,
            rangeType,
          },
          ['accountId'],
          { accountId: 'validation.move.account' },
        ),
      },
    },
    async (request) => {
      const body = request.body as Body;
      const errors: FieldError[] = [];
      let range: Range | undefined;
      let ids: number[] | undefined;
      if (Array.isArray(body.subscriberIds) && body.range === undefined) {
        if (!body.subscriberIds.length || body.subscriberIds.some((id) => !isId(id)))
          errors.push(fieldError('subscriberIds', 'type', 'validation.subscriberId.required'));
        else if (body.subscriberIds.length > RANGE_MAX) errors.push(fieldError('subscriberIds', 'maxItems', 'validation.range.max'));
        else ids = [...new Set(body.subscriberIds as number[])];
      } else if (body.range !== undefined && body.subscriberIds === undefined) range = checkRange(body.range, body.rangeType, errors);
      else errors.push(fieldError('subscriberIds', 'oneOf', 'validation.move.selection'));
      if (errors.length) throw invalid(errors);
      const principal = principalOf(request);
      const resolved = await resolveFlat(db, principal, 'move', { accountId: body.accountId });
      ids ??= await idsInRange(db, principal, range!);
      return { accountId: resolved.account!.accountId, ...(await allOrNothing(app, db, principal, resolved, ids, 'subscriberIds')) };
    },
  );

  app.post(
    '/portal/summa/subscriber-migration/range',
    {
      config: { privilege: 'Subscribers' },
      schema: {
        tags,
        summary: `Migrate a range of subscriber ids (at most ${RANGE_MAX}) to the external core platform, as a background job (202)`,
        description:
          "Body `{ rangeStart, rangeEnd }`: the caller's subscribers in the range become `pending` at once, then `success` or `error` " +
          'one by one (`GET /portal/summa/subscriber-migration/{id}`); the answer carries the job to follow at `GET /portal/jobs/{id}` ' +
          'and the ids of the subscribers it migrates (`subscriberIds`).',
        body: rangeSchema,
      },
    },
    async (request, reply) => {
      const body = request.body as Body;
      const errors: FieldError[] = [];
      const range = checkRange(body, 'SUBSCRIBER_ID', errors, '');
      if (errors.length) throw invalid(errors);
      const principal = requirePanel(request, 'MigrationStatus');
      const ids = await idsInRange(db, principal, range!);
      const jobId = await db.transaction().execute(async (trx) => {
        for (const id of ids) await changeSubscriber(trx, id, principal, 'migration', { migrationStatus: 'pending' });
        return app.jobs.enqueue(
          {
            kind: MIGRATION_JOB,
            userId: principal.userId,
            resellerId: principal.resellerId,
            params: { rangeStart: range!.start, rangeEnd: range!.end },
            keys: ids.map(String),
          },
          trx as never,
        );
      });
      return reply.code(202).send({ jobId, total: ids.length, migrationStatus: 'pending', subscriberIds: ids });
    },
  );
}
