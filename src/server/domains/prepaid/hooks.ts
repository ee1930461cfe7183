import { sql, type Kysely } from 'kysely';
import type { EntityHooks } from '../../engine/routes';
import { fieldError, invalid } from '../../http/errors';
import type { Principal } from '../../http/principal';
import type { Database } from '../../db/types';
import { tableAs } from '../../db/dynamicTable';
import { subtreePattern } from '../../http/tenancy';

const ZONES = [
  ['locationZoneId', 'locationZone'],
  ['destinationZoneId', 'destinationZone'],
] as const;

/**
 * Whether a template of `resellerId` may name the zone: the caller sees the zone (it belongs to their subtree)
 * and it is the template reseller's own or one of a reseller above it, so the template never points across
 * to another branch of resellers.
 */
async function zoneAllowed(
  trx: Kysely<Database>,
  principal: Principal,
  table: (typeof ZONES)[number][1],
  zoneId: number,
  resellerId: number,
): Promise<boolean> {
  const row = await trx
    .selectFrom(tableAs<{ id: number; resellerId: number }, 'z'>(table, 'z'))
    .innerJoin('reseller as owner', 'owner.id', 'z.resellerId')
    .select('z.id')
    .where('z.id', '=', zoneId)
    .where('owner.path', 'like', subtreePattern(principal))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('reseller as t')
          .select('t.id')
          .where('t.id', '=', resellerId)
          .where('t.path', 'like', sql<string>`owner.path || '%'`),
      ),
    )
    .executeTakeFirst();
  return Boolean(row);
}

/** Prepaid templates: the zones they name must be ones the caller and the template's reseller may use. */
export const templateHooks: EntityHooks = {
  async beforeWrite({ values, existing, principal, trx }) {
    const resellerId = Number(values.resellerId ?? existing?.resellerId);
    const errors = [];
    for (const [field, table] of ZONES) {
      // An update that keeps the zone but moves the template to another reseller checks it again.
      const zoneId = field in values ? values[field] : values.resellerId !== undefined ? existing?.[field] : undefined;
      if (zoneId === undefined || zoneId === null) continue;
      if (!(await zoneAllowed(trx, principal, table, Number(zoneId), resellerId))) errors.push(fieldError(field, 'reference', 'validation.zone.notAllowed'));
    }
    if (errors.length) throw invalid(errors);
    return values;
  },
};
