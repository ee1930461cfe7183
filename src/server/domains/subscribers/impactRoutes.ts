import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { FieldError } from '@shared/wire';
import { fieldError, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idParams, idSchema, objectBody, pageNumberSchema, pageSizeSchema } from '../../http/input';
import type { Principal } from '../../http/principal';
import { pageOf, pathId, scopeToCaller, toIso, type Body } from './context';
import type { Database } from '../../db/types';
import { tableAs } from '../../db/dynamicTable';
import { subtreePattern } from '../../http/tenancy';
import { pageAnswer } from '@shared/wire';

/** How far back an attachment counts. */
export const IMPACT_DAYS = 30;
const MAX_ITEMS = 1000;

function stringList(body: Body, name: string, pattern: RegExp, messageId: string, errors: FieldError[]): string[] {
  const value = body[name];
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MAX_ITEMS || value.some((v) => typeof v !== 'string' || !pattern.test(v))) {
    errors.push(fieldError(name, 'pattern', messageId));
    return [];
  }
  return [...new Set(value as string[])];
}

/**
 * The subscribers among `candidates` seen on one of `plmns` in the last 30 days: a credit-control request or a
 * network event on the network, or the network the subscriber was last located on. Counts per country of the
 * network and the page of subscribers asked for.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the candidates come from several differently joined queries
async function impact(db: Kysely<Database>, candidates: SelectQueryBuilder<any, any, any>, plmns: string[], page: { page: number; size: number }) {
  if (!plmns.length) return { plmns, total: 0, countries: [], subscribers: pageAnswer([], 0, page.page, page.size) };
  const since = sql`now() - make_interval(days => ${IMPACT_DAYS})`;
  const hits = sql`with nets as (select plmn, country, operator, brand from network where plmn in (${sql.join(plmns)})),
    cand as (${candidates}),
    hits as (
      select u.subscriber_id, n.country, u.at from usage_record u join nets n on n.plmn = u.plmn join cand c on c.subscriber_id = u.subscriber_id where u.at >= ${since}
      union all
      select e.subscriber_id, n.country, e.created_at from network_event e join nets n on n.plmn = e.plmn join cand c on c.subscriber_id = e.subscriber_id where e.created_at >= ${since}
      union all
      select s.subscriber_id, n.country, s.last_location_at from subscriber s join cand c on c.subscriber_id = s.subscriber_id
        join nets n on n.country = s.country and lower(s.network) in (lower(n.operator), lower(n.brand)) where s.last_location_at >= ${since}
    )`;
  const countries = await sql<{
    country: string;
    count: string;
  }>`${hits} select country, count(distinct subscriber_id) as count from hits group by country order by 2 desc, 1`.execute(db);
  const total = await sql<{ n: string }>`${hits} select count(distinct subscriber_id) as n from hits`.execute(db);
  const rows = await sql<Record<string, unknown>>`${hits}
    select s.subscriber_id, s.name, s.imsi, s.iccid, s.account_id, s.country, s.network, h.last_seen_at
    from (select subscriber_id, max(at) as last_seen_at from hits group by subscriber_id) h join subscriber s on s.subscriber_id = h.subscriber_id
    order by s.subscriber_id limit ${page.size} offset ${page.page * page.size}`.execute(db);
  const n = Number(total.rows[0]?.n ?? 0);
  return {
    plmns,
    total: n,
    countries: countries.rows.map((r) => ({ country: r.country, count: Number(r.count) })),
    subscribers: pageAnswer(
      rows.rows.map((r) => ({ ...r, lastSeenAt: toIso(r.lastSeenAt) })),
      n,
      page.page,
      page.size,
    ),
  };
}

/** The caller's subscribers, as the candidates of an impact query. */
const visibleSubscribers = (db: Kysely<Database>, principal: Principal) =>
  scopeToCaller(db.selectFrom('subscriber as s').innerJoin('reseller as r', 'r.id', 's.resellerId').select('s.subscriberId'), principal);

/** A row of a reseller-owned table the caller may see (its reseller subtree), else 404. */
async function visibleOwned(db: Kysely<Database>, principal: Principal, table: 'allowedList' | 'roamingProfile', key: string, id: number) {
  let q = db
    .selectFrom(tableAs<Record<string, unknown>, 'x'>(table, 'x'))
    .innerJoin('reseller as xr', 'xr.id', 'x.resellerId')
    .selectAll('x')
    .select('xr.path')
    .where(`x.${key}`, '=', id);
  if (!principal.isAdmin) q = q.where('xr.path', 'like', subtreePattern(principal));
  const row = await q.executeTakeFirst();
  if (!row) throw notFound();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a row of the zone or plan table the request names
  return row as Record<string, any>;
}

const COUNTRY = /^[A-Z]{2}$/;
const PLMN = /^\d{5,6}$/;

/** Impact previews: which subscribers a change of an allowed list or a roaming profile would affect. */
export function registerSubscriberImpactRoutes(app: FastifyInstance, db: Kysely<Database>) {
  /** Codes of networks or countries: a list of at most MAX_ITEMS, each matching `pattern`. */
  const codes = (pattern: RegExp, messageId: string) => ({
    type: 'array',
    maxItems: MAX_ITEMS,
    items: { type: 'string', maxLength: 10, pattern: pattern.source },
    errorMessage: messageId,
  });
  const page = { type: 'object', properties: { page: pageNumberSchema(), size: pageSizeSchema() } };
  const countryNetworks = async (countries: string[]) =>
    countries.length ? (await db.selectFrom('network').select('plmn').where('country', 'in', countries).execute()).map((r) => r.plmn as string) : [];

  app.post(
    '/portal/allowed-lists/:id/impact',
    {
      config: { privilege: 'AllowedLists' },
      schema: {
        tags: ['allowed-lists'],
        summary: `Subscribers a change of the allowed list would cut off: those seen in the last ${IMPACT_DAYS} days on the networks it would block or remove`,
        description:
          'Body `{ plmns?: string[], countries?: string[], page?: { page, size } }` (networks by PLMN code, or every network of a country). ' +
          'The list applies to the subscribers of its reseller whose roaming profile includes it or who hold an IMSI of its sponsor. ' +
          'The answer: `{ total, countries: [{ country, count }], subscribers }` (a page, subscriber id order).',
        params: idParams(),
        body: objectBody({ plmns: codes(PLMN, 'validation.plmn.invalid'), countries: codes(COUNTRY, 'validation.country.invalid'), page }),
      },
    },
    async (request: FastifyRequest) => {
      const body = request.body as Body;
      const errors: FieldError[] = [];
      const plmns = stringList(body, 'plmns', PLMN, 'validation.plmn.invalid', errors);
      const countries = stringList(body, 'countries', COUNTRY, 'validation.country.invalid', errors);
      if (!errors.length && !plmns.length && !countries.length) errors.push(fieldError('plmns', 'required', 'validation.impact.networks'));
      const page = pageOf(body, 500, 50);
      if (errors.length) throw invalid(errors);
      const principal = principalOf(request);
      const list = await visibleOwned(db, principal, 'allowedList', 'allowedListId', pathId(request));
      const candidates = visibleSubscribers(db, principal)
        .where('r.path', 'like', sql<string>`${list.path} || '%'`)
        .where((eb) =>
          eb.or([
            eb(
              's.roamingProfileId',
              'in',
              eb.selectFrom('roamingProfileAllowedList').select('roamingProfileId').where('allowedListId', '=', list.allowedListId),
            ),
            eb.exists(
              eb.selectFrom('sponsorImsi as i').select('i.imsi').whereRef('i.subscriberId', '=', 's.subscriberId').where('i.sponsorId', '=', list.sponsorId),
            ),
          ]),
        );
      const networks = [...new Set([...plmns, ...(await countryNetworks(countries))])];
      return { allowedListId: list.allowedListId, ...(await impact(db, candidates, networks, page)) };
    },
  );

  app.post(
    '/portal/roaming-profiles/:id/impact',
    {
      config: { privilege: 'RoamingProfile' },
      schema: {
        tags: ['roaming-profiles'],
        summary: `Subscribers a change of the roaming profile would cut off: those on it seen in the last ${IMPACT_DAYS} days in the countries or on the allowed lists' networks it would drop`,
        description:
          'Body `{ countries?: string[], allowedListIds?: number[], page?: { page, size } }`: a dropped allowed list counts with the networks it allows. ' +
          'The answer: `{ total, countries: [{ country, count }], subscribers }` (a page, subscriber id order).',
        params: idParams(),
        body: objectBody({
          countries: codes(COUNTRY, 'validation.country.invalid'),
          allowedListIds: { type: 'array', maxItems: MAX_ITEMS, items: idSchema(), errorMessage: 'validation.impact.networks' },
          page,
        }),
      },
    },
    async (request) => {
      const body = request.body as Body;
      const errors: FieldError[] = [];
      const countries = stringList(body, 'countries', COUNTRY, 'validation.country.invalid', errors);
      const lists = body.allowedListIds ?? [];
      if (!Array.isArray(lists) || lists.length > MAX_ITEMS || lists.some((id) => !Number.isInteger(id) || id < 1))
        errors.push(fieldError('allowedListIds', 'type', 'validation.impact.networks'));
      else if (!errors.length && !countries.length && !lists.length) errors.push(fieldError('countries', 'required', 'validation.impact.networks'));
      const page = pageOf(body, 500, 50);
      if (errors.length) throw invalid(errors);
      const principal = principalOf(request);
      const profile = await visibleOwned(db, principal, 'roamingProfile', 'id', pathId(request));
      const listIds = (lists as number[]).length
        ? (
            await db
              .selectFrom('roamingProfileAllowedList')
              .select('allowedListId')
              .where('roamingProfileId', '=', profile.id)
              .where('allowedListId', 'in', lists as number[])
              .execute()
          ).map((r) => r.allowedListId as number)
        : [];
      const allowed = listIds.length
        ? (
            await db
              .selectFrom('allowedListNetwork as aln')
              .innerJoin('network as n', 'n.id', 'aln.networkId')
              .select('n.plmn')
              .where('aln.allowedListId', 'in', listIds)
              .where((eb) => eb.or([eb('aln.applied', '=', 'preferred'), eb('aln.target', '=', 'preferred')]))
              .execute()
          ).map((r) => r.plmn as string)
        : [];
      const candidates = visibleSubscribers(db, principal).where('s.roamingProfileId', '=', profile.id);
      const networks = [...new Set([...(await countryNetworks(countries)), ...allowed])];
      return { roamingProfileId: profile.id, ...(await impact(db, candidates, networks, page)) };
    },
  );
}
