import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { EntityHooks } from '../../engine/routes';
import { conflict, fieldError, forbidden } from '../../http/errors';
import type { Principal } from '../../http/principal';
import type { Database } from '../../db/types';
import { effectiveClasses, reapply, type Affected } from './index';

/** Whether the class's owner is the caller's own reseller or one below it: only those classes are written. */
async function ownsClass(trx: Kysely<Database>, principal: Principal, resellerId: number) {
  if (principal.isAdmin) return true;
  if (principal.accountId !== null) return false;
  const row = await trx
    .selectFrom('reseller')
    .select('id')
    .where('id', '=', resellerId)
    .where(sql<boolean>`starts_with(path, ${principal.resellerPath})`)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Service classes: a class of a reseller above the caller (the provider's) is read, never written; a new class gets
 * its speed id (`code`, what daily-limit throttling names) from its key; a change of speeds re-applies them to the
 * subscribers using the class; a class still named by throttling cannot be deleted. List pages carry the number of
 * subscribers using each class among those the caller sees.
 */
export function serviceClassHooks(app: FastifyInstance): EntityHooks {
  return {
    async beforeWrite({ mode, values, existing, principal, trx }) {
      if (existing && !(await ownsClass(trx, principal, Number(existing.resellerId)))) throw forbidden();
      if (mode === 'create') {
        const { rows } = await sql<{ id: number }>`select nextval(pg_get_serial_sequence('service_class', 'id'))::int as id`.execute(trx);
        return { ...values, id: rows[0].id, code: `class-${rows[0].id}` };
      }
      return values;
    },
    async afterWrite({ mode, id, values, principal, trx }) {
      if (mode === 'update' && ('downlinkKbps' in values || 'uplinkKbps' in values)) await reapply(app, trx, principal, { serviceClassId: id });
    },
    async beforeDelete({ existing, principal, trx }) {
      if (!(await ownsClass(trx, principal, Number(existing.resellerId)))) throw forbidden();
      const throttled = await trx
        .selectFrom('subscriber')
        .select('subscriberId')
        .where('qosThrottling', '=', String(existing.code))
        .limit(1)
        .executeTakeFirst();
      if (throttled) throw conflict([fieldError('', 'inUse', 'entity.serviceClass.inUse')]);
    },
    async afterPage(rows, principal, db) {
      const ids = rows.map((r) => Number(r.id));
      if (!ids.length) return rows;
      let q = db
        .selectFrom(effectiveClasses(db).as('e'))
        .select(['e.serviceClassId', (eb) => eb.fn.countAll<string>().as('n')])
        .where('e.serviceClassId', 'in', ids)
        .groupBy('e.serviceClassId');
      if (!principal.isAdmin)
        q = q.where(
          'e.resellerId',
          'in',
          db
            .selectFrom('reseller')
            .select('id')
            .where(sql<boolean>`starts_with(path, ${principal.resellerPath})`),
        );
      if (principal.accountId !== null)
        q = q.where('e.subscriberId', 'in', db.selectFrom('subscriber').select('subscriberId').where('accountId', '=', principal.accountId));
      const counts = new Map((await q.execute()).map((r) => [Number(r.serviceClassId), Number(r.n)]));
      return rows.map((r) => ({ ...r, subscriberCount: counts.get(Number(r.id)) ?? 0 }));
    },
  };
}

/**
 * Adds to an entity's hooks (reseller, account, subscriber) the re-application of speeds when its service class
 * changes: the subscribers below it get their new effective class.
 */
export function withServiceClass(base: EntityHooks, app: FastifyInstance, affected: (id: number) => Affected): EntityHooks {
  return {
    ...base,
    async afterWrite(ctx) {
      await base.afterWrite?.(ctx);
      if (ctx.mode === 'update' && 'serviceClassId' in ctx.values) await reapply(app, ctx.trx, ctx.principal, affected(ctx.id));
    },
  };
}
