/**
 * Subscriber groups (schemas/subscriber-group.json): named sets of subscribers owned by a reseller and seen by its
 * subtree. A static group lists its members (table `subscriber_group_member`); a saved search stores a subscriber
 * list search, run again whenever the group is read. The subscribers list filters by a group with
 * `searchBy: "groupId"` and the group's id as the key (`groupListHook`).
 */
import { sql, type Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { ListRequestError, normaliseListRequest, searchFilters, type EntitySchema, type NormalisedListRequest } from '@shared/schema';
import type { CustomFieldDefinition } from '@shared/customFields';
import type { ListRequest } from '@shared/wire';
import type { Database } from '../../db/types';
import { EntityRepository } from '../../engine/repository';
import type { EntityHooks } from '../../engine/routes';
import { fieldError, HttpError, invalid, notFound } from '../../http/errors';
import { resellerUser } from '../../http/tenancy';
import { principalOf } from '../../http/guard';
import { idParams, idSchema, listRequestSchema, objectBody, pageSchema } from '../../http/input';
import type { Principal } from '../../http/principal';
import { customFieldsOf } from '../../engine/customFields';

type Row = Record<string, unknown>;

/** The search filter of the subscribers list that selects a group's subscribers. */
export const GROUP_FILTER = 'groupId';
/** The most subscribers one call adds to or removes from a group. */
export const MAX_GROUP_CHANGE = 1000;

const schemaOf = (schemas: EntitySchema[], id: string) => {
  const schema = schemas.find((s) => s.$id === id);
  if (!schema) throw new Error(`schema ${id} missing`);
  return schema;
};

/** The subscriber search a saved-search group stores, as the subscribers list would run it (sort and page kept). */
function storedSearch(
  subscriber: EntitySchema,
  group: Row,
  req: Pick<NormalisedListRequest, 'sortBy' | 'sortDir' | 'page' | 'size' | 'after'>,
  principal: Principal,
  custom: readonly CustomFieldDefinition[],
): NormalisedListRequest {
  const stored = normaliseListRequest(
    subscriber,
    {
      searchBy: String(group.searchBy),
      searchKey: String(group.searchKey),
      sortBy: req.sortBy,
      sortDir: req.sortDir,
      page: { page: req.page, size: req.size },
    },
    principal.isAdmin,
    custom,
  );
  return { ...stored, ...(req.after !== undefined ? { after: req.after } : {}) };
}

/**
 * The subscribers list's group filter: the key names a group the caller sees (else 400, naming `searchKey`); a
 * static group keeps the schema's filter (its membership rows), a saved search is replaced by the search it stores.
 * A key that is not a number matches no subscriber (the schema's filter compares it with no id).
 */
export function groupListHook(db: Kysely<Database>, schemas: EntitySchema[]): NonNullable<EntityHooks['beforeList']> {
  const groups = new EntityRepository(db, schemaOf(schemas, 'subscriberGroup'));
  const subscriber = schemaOf(schemas, 'subscriber');
  return async ({ req, principal, custom }) => {
    if (req.searchBy?.by !== GROUP_FILTER || !req.searchKey) return req;
    // A key that is no id matches nothing, as any id filter's does; an id must name a group the caller sees.
    if (!/^\d{1,15}$/.test(req.searchKey)) return req;
    const id = Number(req.searchKey);
    const group = id <= 2147483647 ? await groups.get(id, { principal }) : undefined;
    if (!group) throw invalid([fieldError('searchKey', 'reference', 'subscriberGroup.unknown')]);
    return group.kind === 'search' ? storedSearch(subscriber, group, req, principal, custom) : req;
  };
}

/**
 * Checks a group's kind and stored search: a saved search names a filter the subscribers list offers the caller (not
 * the group filter itself) and a key; a static group keeps none. A group turned into a saved search loses its list.
 * Groups belong to a reseller: its account users use them (each sees only its own account's members) but do not
 * shape them for the reseller's other accounts (the schema's `resellerWrites`, and `groupFor` for members).
 */
export function subscriberGroupHooks(schemas: EntitySchema[]): EntityHooks {
  const subscriber = schemaOf(schemas, 'subscriber');
  return {
    async beforeWrite({ values, existing, principal }) {
      const kind = values.kind ?? existing?.kind ?? 'static';
      if (kind === 'static') return { ...values, searchBy: null, searchKey: null };
      const searchBy = (values.searchBy ?? existing?.searchBy ?? '') as string;
      const searchKey = String(values.searchKey ?? existing?.searchKey ?? '').trim();
      const offered = searchFilters(subscriber, principal.isAdmin).some((f) => f.by === searchBy && f.by !== GROUP_FILTER);
      const errors = [
        ...(offered ? [] : [fieldError('searchBy', 'enum', 'subscriberGroup.searchBy.invalid')]),
        ...(searchKey ? [] : [fieldError('searchKey', 'required', 'subscriberGroup.searchKey.required')]),
      ];
      if (errors.length) throw invalid(errors);
      return { ...values, searchBy, searchKey };
    },
    async afterWrite({ id, values, trx }) {
      if (values.kind === 'search') await trx.deleteFrom('subscriberGroupMember').where('groupId', '=', id).execute();
    },
  };
}

const tags = ['subscribers'];
const config = { privilege: 'Subscribers' };
const idsBody = objectBody(
  {
    subscriberIds: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_GROUP_CHANGE,
      items: { ...idSchema({}, 'type'), errorMessage: 'validation.subscriberIds.invalid' },
      errorMessage: { type: 'validation.subscriberIds.invalid', minItems: 'validation.subscriberIds.invalid', maxItems: 'subscriberGroup.members.tooMany' },
    },
  },
  ['subscriberIds'],
  { subscriberIds: 'validation.subscriberIds.invalid' },
);
const outcomes = (values: string[], description: string) => ({
  200: {
    type: 'object',
    required: ['results'],
    properties: {
      results: {
        type: 'array',
        description,
        items: {
          type: 'object',
          required: ['subscriberId', 'outcome'],
          properties: { subscriberId: { type: 'integer' }, outcome: { type: 'string', enum: values } },
        },
      },
    },
  },
});

/** Member calls: add and remove subscribers of a static group, and a page of any group's subscribers. */
export function registerSubscriberGroupRoutes(app: FastifyInstance, db: Kysely<Database>, schemas: EntitySchema[]) {
  const groups = new EntityRepository(db, schemaOf(schemas, 'subscriberGroup'));
  const subscriber = schemaOf(schemas, 'subscriber');
  const subscribers = new EntityRepository(db, subscriber);
  const customFields = customFieldsOf(db);

  /** The group, if the caller sees it (404 otherwise); for a change of members, a static one (409 otherwise). */
  async function groupFor(principal: Principal, id: number, trx: Kysely<Database> = db, forMembers = false) {
    const group = await groups.get(id, { principal }, trx);
    if (!group) throw notFound();
    if (forMembers) resellerUser(principal);
    if (forMembers && group.kind !== 'static')
      throw new HttpError(409, 'CONFLICT', 'subscriberGroup.members.searchKind', [fieldError('kind', 'static', 'subscriberGroup.members.searchKind')]);
    return group;
  }

  /**
   * Of `ids`, those that may join the group: subscribers the writer sees that belong to the group owner's subtree
   * (a group never holds what its own users could not see).
   */
  async function admissible(trx: Kysely<Database>, principal: Principal, group: Row, ids: number[]): Promise<Set<number>> {
    const seen = [...(await subscribers.visibleIds(ids, { principal }, trx))];
    if (!seen.length) return new Set();
    const rows = await trx
      .selectFrom('subscriber as s')
      .innerJoin('reseller as r', 'r.id', 's.resellerId')
      .select('s.subscriberId')
      .where('s.subscriberId', 'in', seen)
      .where(sql<boolean>`starts_with(r.path, (select o.path from reseller o where o.id = ${Number(group.resellerId)}))`)
      .execute();
    return new Set(rows.map((r) => Number(r.subscriberId)));
  }

  app.post(
    '/portal/subscriber-groups/:id/members',
    {
      config,
      schema: {
        tags,
        summary: 'Adds subscribers to a static group; each id answers added, already (a member before) or notVisible',
        params: idParams(),
        body: idsBody,
        response: outcomes(['added', 'already', 'notVisible'], 'One outcome per distinct id, in the order sent'),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { id } = request.params as { id: number };
      const ids = [...new Set((request.body as { subscriberIds: number[] }).subscriberIds)];
      return db.transaction().execute(async (trx) => {
        const group = await groupFor(principal, id, trx, true);
        const allowed = await admissible(trx, principal, group, ids);
        const insert = ids.filter((s) => allowed.has(s));
        const added = new Set<number>();
        if (insert.length) {
          const rows = await trx
            .insertInto('subscriberGroupMember')
            .values(insert.map((subscriberId) => ({ groupId: id, subscriberId })))
            .onConflict((oc) => oc.columns(['groupId', 'subscriberId']).doNothing())
            .returning('subscriberId')
            .execute();
          for (const r of rows) added.add(Number(r.subscriberId));
        }
        return { results: ids.map((s) => ({ subscriberId: s, outcome: !allowed.has(s) ? 'notVisible' : added.has(s) ? 'added' : 'already' })) };
      });
    },
  );

  app.post(
    '/portal/subscriber-groups/:id/members/remove',
    {
      config,
      schema: {
        tags,
        summary: 'Removes subscribers from a static group; each id answers removed, absent (no member) or notVisible',
        params: idParams(),
        body: idsBody,
        response: outcomes(['removed', 'absent', 'notVisible'], 'One outcome per distinct id, in the order sent'),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { id } = request.params as { id: number };
      const ids = [...new Set((request.body as { subscriberIds: number[] }).subscriberIds)];
      return db.transaction().execute(async (trx) => {
        await groupFor(principal, id, trx, true);
        const seen = await subscribers.visibleIds(ids, { principal }, trx);
        const mine = ids.filter((s) => seen.has(s));
        const removed = new Set<number>();
        if (mine.length) {
          const rows = await trx
            .deleteFrom('subscriberGroupMember')
            .where('groupId', '=', id)
            .where('subscriberId', 'in', mine)
            .returning('subscriberId')
            .execute();
          for (const r of rows) removed.add(Number(r.subscriberId));
        }
        return { results: ids.map((s) => ({ subscriberId: s, outcome: !seen.has(s) ? 'notVisible' : removed.has(s) ? 'removed' : 'absent' })) };
      });
    },
  );

  app.post(
    '/portal/subscriber-groups/:id/members/paged',
    {
      config,
      schema: {
        tags,
        summary: "A page of the group's subscribers the caller sees (a saved search's current answer), sorted like the subscribers list",
        params: idParams(),
        body: listRequestSchema(),
        response: {
          200: pageSchema({
            type: 'object',
            properties: {
              subscriberId: { type: 'integer' },
              name: { type: 'string' },
              status: { type: 'string' },
              imsi: { type: 'string' },
              iccid: { type: 'string' },
              accountName: { type: 'string' },
            },
          }),
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { id } = request.params as { id: number };
      const group = await groupFor(principal, id);
      const body = (request.body ?? {}) as ListRequest;
      const custom = await customFields.forPath('subscriber', principal.resellerPath);
      let req: NormalisedListRequest;
      try {
        const base = normaliseListRequest(subscriber, { sortBy: body.sortBy, sortDir: body.sortDir, page: body.page }, principal.isAdmin, custom);
        req =
          group.kind === 'search'
            ? storedSearch(subscriber, group, base, principal, custom)
            : normaliseListRequest(subscriber, { ...body, searchBy: GROUP_FILTER, searchKey: String(id) }, principal.isAdmin, custom);
      } catch (e) {
        if (e instanceof ListRequestError) throw invalid([fieldError(e.field, e.rule, e.messageId)]);
        throw e;
      }
      return subscribers.page(req, { principal });
    },
  );
}
