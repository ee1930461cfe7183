import type { FastifyInstance } from 'fastify';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { countryNames } from '@shared/countries';
import type { CoreNetwork, CoreNetworkAnswer, CoreNetworkOperation } from '../../adapters/core-network';
import type { Engine } from '../../db';
import { queryBatches, sendCsv } from '../../engine/csv';
import type { EntityHooks } from '../../engine/routes';
import { HttpError, fieldError, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idParams, idSchema, pathId } from '../../http/input';
import type { Principal } from '../../http/principal';
import type { RefreshReport } from '../networks/catalogue';
import type { Database } from '../../db/types';
import { subtreePattern } from '../../http/tenancy';

/** Confirmed states (`applied`) and the targets of pending changes. */
type Final = 'blocked' | 'preferred' | 'removed';

/**
 * The state shown for a network of a list: the confirmed one, or while a change waits, the kind of change:
 * pending (to be blocked), pendingChanges (to be allowed again), pendingRemoval (leaving the list).
 */
export const NETWORK_STATES = ['pending', 'blocked', 'preferred', 'removed', 'pendingRemoval', 'pendingChanges'] as const;

const OPERATION: Record<Final, CoreNetworkOperation> = { blocked: 'blockNetwork', preferred: 'allowNetwork', removed: 'removeNetwork' };

/** A change sent more than this long ago without an answer (the server stopped) counts as unsent. */
const STALE_MINUTES = 5;

const stateSql = sql<string>`case when aln.target is null then aln.applied when aln.target = 'blocked' then 'pending'
  when aln.target = 'preferred' then 'pendingChanges' else 'pendingRemoval' end`;

const staleBefore = () => new Date(Date.now() - STALE_MINUTES * 60_000);

/**
 * The list if the caller may see it: the admin any, a reseller's users their subtree's, an account user its own
 * reseller's (its sub-resellers are other tenants to it), as the lists' own tenancy has it.
 */
async function visibleList(db: Kysely<Database>, principal: Principal, where: { id?: number; uuid?: string }) {
  let q = db.selectFrom('allowedList as l').selectAll('l');
  if (where.id !== undefined) q = q.where('l.allowedListId', '=', where.id);
  if (where.uuid !== undefined) q = q.where('l.uuid', '=', where.uuid);
  if (principal.accountId !== null) q = q.where('l.resellerId', '=', principal.resellerId);
  else if (!principal.isAdmin) {
    q = q.where('l.resellerId', 'in', (eb) => eb.selectFrom('reseller').select('id').where('path', 'like', subtreePattern(principal)));
  }
  const list = await q.executeTakeFirst();
  if (!list) throw notFound();
  return list as {
    allowedListId: number;
    uuid: string;
    name: string;
    resellerId: number;
    syncTotal: number;
    syncDone: number;
    syncStartedAt: Date | null;
    syncFinishedAt: Date | null;
  };
}

/** A new list allows every network of the catalogue, as the core network does by default (its sponsor is checked by the engine). */
export const allowedListHooks: EntityHooks = {
  async afterWrite({ mode, id, trx }) {
    if (mode !== 'create') return;
    await sql`insert into allowed_list_network (allowed_list_id, network_id, applied)
      select ${id}, id, 'preferred' from network where withdrawn_at is null`.execute(trx);
  },
};

/** Marks changes of the given networks of a list; answers how many networks now wait for a sync. */
export async function markNetworks(
  db: Kysely<Database>,
  allowedListId: number,
  select: { plmns?: string[]; countries?: string[] },
  target: 'blocked' | 'preferred',
) {
  const networks = (eb: ExpressionBuilder<Database, 'allowedListNetwork'>) => {
    let q = eb.selectFrom('network').select('id');
    q = q.where((w) =>
      w.or([...(select.plmns?.length ? [w('plmn', 'in', select.plmns)] : []), ...(select.countries?.length ? [w('country', 'in', select.countries)] : [])]),
    );
    return q;
  };
  // A change waiting for its answer keeps its target, so the answer cannot overwrite what was asked since.
  const result = await db
    .updateTable('allowedListNetwork')
    .set({
      target: sql`case when applied = ${target} and sent_at is null then null else ${target} end`,
      lastError: null,
      changedAt: sql`now()`,
    })
    .where('allowedListId', '=', allowedListId)
    .where('networkId', 'in', networks)
    .where('applied', '<>', 'removed')
    .where((eb) => eb.or([eb('target', 'is', null), eb('target', '<>', 'removed')]))
    .where(sql<boolean>`coalesce(target, applied) <> ${target}`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Sends every waiting change of a list to the core network. Answers arrive later: each moves its network from
 * pending to the final state (or leaves it pending with the error), and counts towards the list's progress.
 */
export async function syncList(db: Kysely<Database>, core: CoreNetwork, list: { allowedListId: number; uuid: string; resellerId: number }) {
  const id = list.allowedListId;
  const sent = await db.transaction().execute(async (trx) => {
    const running = await trx
      .selectFrom('allowedList')
      .select('allowedListId')
      .where('allowedListId', '=', id)
      .where('syncFinishedAt', 'is', null)
      .where('syncStartedAt', '>', staleBefore())
      .forUpdate()
      .executeTakeFirst();
    if (running) throw new HttpError(409, 'SYNC_RUNNING', 'error.sync.running');
    const rows = await trx
      .updateTable('allowedListNetwork as aln')
      .from('network as n')
      .set({ sentAt: sql`now()` })
      .whereRef('n.id', '=', 'aln.networkId')
      .where('aln.allowedListId', '=', id)
      .where('aln.target', 'is not', null)
      .where((eb) => eb.or([eb('aln.sentAt', 'is', null), eb('aln.sentAt', '<', staleBefore())]))
      .returning(['aln.networkId', 'aln.target', 'n.plmn'])
      .execute();
    await trx
      .updateTable('allowedList')
      .set({
        syncTotal: rows.length,
        syncDone: 0,
        syncFailed: 0,
        syncStartedAt: sql`now()`,
        syncFinishedAt: rows.length ? null : sql`now()`,
      })
      .where('allowedListId', '=', id)
      .execute();
    return rows as { networkId: number; target: Final; plmn: string }[];
  });
  for (const row of sent) {
    core.dispatch(
      {
        operation: OPERATION[row.target],
        resellerId: list.resellerId,
        plmn: row.plmn,
        subject: `allowed-list:${list.uuid}`,
        payload: { allowedListUuid: list.uuid },
      },
      (answer) => applyAnswer(db, id, row, answer),
    );
  }
  return sent.length;
}

async function applyAnswer(db: Kysely<Database>, id: number, row: { networkId: number; target: Final }, answer: CoreNetworkAnswer) {
  await db.transaction().execute(async (trx) => {
    const change = trx.updateTable('allowedListNetwork').where('allowedListId', '=', id).where('networkId', '=', row.networkId);
    if (answer.ok) {
      await change
        .set({
          applied: row.target,
          target: sql`case when target is null or target = ${row.target} then null else target end`,
          sentAt: null,
          lastError: null,
          changedAt: sql`now()`,
        })
        .execute();
    } else {
      await change.set({ sentAt: null, lastError: answer.detail ?? 'failed' }).execute();
    }
    await trx
      .updateTable('allowedList')
      .set({
        syncDone: sql`sync_done + 1`,
        syncFailed: sql`sync_failed + ${answer.ok ? 0 : 1}`,
        syncFinishedAt: sql`case when sync_done + 1 >= sync_total then now() else sync_finished_at end`,
      })
      .where('allowedListId', '=', id)
      .execute();
  });
}

/** A catalogue refresh reaches every list: new networks wait to be allowed, withdrawn ones to be removed. */
export async function applyCatalogueChanges(db: Kysely<Database>, report: RefreshReport) {
  const arriving = [...report.added, ...report.restored];
  if (arriving.length) {
    await sql`insert into allowed_list_network (allowed_list_id, network_id, applied, target)
      select l.allowed_list_id, n.id, 'removed', 'preferred' from allowed_list l cross join network n
      where n.plmn in (${sql.join(arriving)})
      on conflict (allowed_list_id, network_id) do update set target = 'preferred', changed_at = now()
      where allowed_list_network.applied = 'removed' or allowed_list_network.target = 'removed'`.execute(db);
  }
  if (report.withdrawn.length) {
    await db
      .updateTable('allowedListNetwork')
      .set({ target: 'removed', changedAt: sql`now()` })
      .where('networkId', 'in', (eb) => eb.selectFrom('network').select('id').where('plmn', 'in', report.withdrawn))
      .where('applied', '<>', 'removed')
      .execute();
  }
}

/** Counts by state, overall and per country (the preview's country list). */
async function summary(db: Kysely<Database>, id: number) {
  const rows = await db
    .selectFrom('allowedListNetwork as aln')
    .innerJoin('network as n', 'n.id', 'aln.networkId')
    .select(['n.country', stateSql.as('state'), (eb) => eb.fn.countAll().as('n')])
    .where('aln.allowedListId', '=', id)
    .groupBy(['n.country', stateSql])
    .orderBy('n.country')
    .execute();
  const empty = () => Object.fromEntries(NETWORK_STATES.map((s) => [s, 0])) as Record<(typeof NETWORK_STATES)[number], number>;
  const counts = empty();
  const countries = new Map<string, ReturnType<typeof empty>>();
  for (const r of rows) {
    const state = r.state as (typeof NETWORK_STATES)[number];
    const c = countries.get(r.country) ?? empty();
    c[state] += Number(r.n);
    counts[state] += Number(r.n);
    countries.set(r.country, c);
  }
  return { counts, countries: [...countries].map(([country, states]) => ({ country, states })) };
}

const networkColumns = ['n.id as networkId', 'n.plmn', 'n.mcc', 'n.mnc', 'n.country', 'n.operator', 'n.brand', 'aln.lastError'] as const;

export function registerAllowedListRoutes(app: FastifyInstance, db: Kysely<Database>, engine: Engine) {
  app.get(
    '/portal/allowed-lists/:id/networks',
    {
      config: { privilege: 'AllowedLists' },
      schema: { tags: ['allowed-lists'], summary: 'Countries of an allowed list with their networks counted by state', params: idParams() },
    },
    async (request) => {
      const list = await visibleList(db, principalOf(request), { id: pathId(request) });
      return { allowedListId: list.allowedListId, ...(await summary(db, list.allowedListId)) };
    },
  );

  app.get(
    '/portal/allowed-lists/:id/networks/:country',
    {
      config: { privilege: 'AllowedLists' },
      schema: {
        tags: ['allowed-lists'],
        summary: 'The networks of one country of an allowed list and their state',
        params: { type: 'object', properties: { id: idSchema(), country: { type: 'string', pattern: '^[A-Z]{2}$' } } },
      },
    },
    async (request) => {
      const list = await visibleList(db, principalOf(request), { id: pathId(request) });
      const rows = await db
        .selectFrom('allowedListNetwork as aln')
        .innerJoin('network as n', 'n.id', 'aln.networkId')
        .select([...networkColumns, stateSql.as('state'), sql<boolean>`aln.sent_at is not null`.as('inFlight')])
        .where('aln.allowedListId', '=', list.allowedListId)
        .where('n.country', '=', (request.params as { country: string }).country)
        .orderBy('n.plmn')
        .execute();
      return rows.map(({ lastError, ...r }) => ({ ...r, ...(lastError ? { lastError } : {}) }));
    },
  );

  app.post(
    '/portal/admin/block-networks',
    {
      config: { adminOnly: true },
      schema: {
        tags: ['allowed-lists'],
        summary: 'Blocks or unblocks networks of an allowed list',
        body: {
          type: 'object',
          required: ['allowedListId', 'blocked'],
          additionalProperties: false,
          properties: {
            allowedListId: { type: 'integer' },
            blocked: { type: 'boolean' },
            plmns: { type: 'array', maxItems: 5000, items: { type: 'string', pattern: '^\\d{5,6}$' } },
            countries: { type: 'array', maxItems: 300, items: { type: 'string', pattern: '^[A-Z]{2}$' } },
          },
        },
      },
    },
    async (request) => {
      const body = request.body as { allowedListId: number; blocked: boolean; plmns?: string[]; countries?: string[] };
      if (!body.plmns?.length && !body.countries?.length) throw invalid([fieldError('plmns', 'required', 'validation.networks.required')]);
      const list = await visibleList(db, principalOf(request), { id: body.allowedListId });
      const changed = await markNetworks(db, list.allowedListId, body, body.blocked ? 'blocked' : 'preferred');
      return { allowedListId: list.allowedListId, changed, ...(await summary(db, list.allowedListId)) };
    },
  );

  app.post(
    '/portal/allowed-lists/:id/sync',
    {
      config: { privilege: 'AllowedLists' },
      schema: { tags: ['allowed-lists'], summary: 'Sends the pending changes of an allowed list to the core network', params: idParams() },
    },
    async (request, reply) => {
      const list = await visibleList(db, principalOf(request), { id: pathId(request) });
      const sent = await syncList(db, app.coreNetwork, list);
      return reply.status(202).send({ allowedListId: list.allowedListId, sent });
    },
  );

  // The specification names the list by its uuid here.
  app.post(
    '/portal/allowed-lists/:id/download',
    {
      config: { privilege: 'AllowedLists' },
      schema: {
        tags: ['allowed-lists'],
        summary: 'The networks of an allowed list as CSV',
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 40, description: "The list's uuid" } } },
      },
    },
    async (request, reply) => {
      const uuid = (request.params as { id: string }).id;
      if (!/^[0-9a-f-]{36}$/i.test(uuid)) throw invalid([fieldError('uuid', 'format', 'validation.invalid')]);
      const list = await visibleList(db, principalOf(request), { uuid: uuid.toLowerCase() });
      const names = countryNames('en');
      const query = db
        .selectFrom('allowedListNetwork as aln')
        .innerJoin('network as n', 'n.id', 'aln.networkId')
        .select([...networkColumns, stateSql.as('state')])
        .where('aln.allowedListId', '=', list.allowedListId)
        .orderBy('n.country')
        .orderBy('n.plmn');
      const header = ['country', 'countryName', 'mcc', 'mnc', 'plmn', 'operator', 'brand', 'state', 'lastError'];
      const safeName = list.name.replace(/[^\w.-]+/g, '-');
      return sendCsv(reply, `allowed-list-${safeName}.csv`, header, queryBatches(db, engine, query), (r) => [
        r.country,
        names[r.country as string],
        r.mcc,
        r.mnc,
        r.plmn,
        r.operator,
        r.brand,
        r.state,
        r.lastError,
      ]);
    },
  );
}
