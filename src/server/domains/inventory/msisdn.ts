/**
 * The MSISDN pool: suppliers, countries and numbers. A number belongs to a reseller; the caller sees the numbers
 * of its reseller's subtree (an account user those of its own reseller), and a number goes only to a subscriber
 * of its owner or of a reseller below it.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { fieldError, HttpError } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idSchema, objectBody, pageNumberSchema, pageSizeSchema, searchTextSchema } from '../../http/input';
import type { Principal } from '../../http/principal';
import { escapeLike, subtreePattern } from '../../http/tenancy';
import { envelope } from '../subscribers/context';
import { msisdnCountriesSchema, msisdnPageSchema, msisdnSuppliersSchema } from './schemas';

const tags = ['inventory'];
const config = { privilege: ['Inventory', 'Subscribers'] };

/** The owners whose numbers the caller sees, as a condition on `reseller r`. */
export function poolOwners(principal: Principal) {
  if (principal.isAdmin) return sql<boolean>`true`;
  return principal.accountId !== null ? sql<boolean>`r.id = ${principal.resellerId}` : sql<boolean>`r.path like ${subtreePattern(principal)}`;
}

/**
 * Whether a number of the pool may go to the subscriber: refused (403) when the caller does not see it or the
 * subscriber's reseller is not its owner or below it. A number not in the pool is left to the caller's rules.
 */
export async function checkPoolNumber(db: Kysely<Database>, principal: Principal, subscriberResellerId: number, msisdn: string) {
  const row = (
    await sql<{ visible: boolean; fits: boolean }>`select ${poolOwners(principal)} as visible,
      starts_with((select path from reseller where id = ${subscriberResellerId}), r.path) as fits
      from msisdn_pool p join reseller r on r.id = p.reseller_id where p.msisdn = ${msisdn}`.execute(db)
  ).rows[0];
  if (row && !(row.visible && row.fits))
    throw new HttpError(403, 'FORBIDDEN', 'inventory.msisdn.otherTenant', [fieldError('msisdn', 'tenant', 'inventory.msisdn.otherTenant')]);
}

export function registerMsisdnRoutes(app: FastifyInstance, db: Kysely<Database>) {
  app.get(
    '/portal/inventory/msisdn-suppliers',
    { config, schema: { tags, summary: 'The suppliers of the numbers the caller sees, with their counts', response: { 200: msisdnSuppliersSchema } } },
    async (request) => {
      const rows = await sql<Record<string, unknown>>`select s.id, s.name, s.country, count(p.msisdn)::int as total,
        count(p.msisdn) filter (where m.msisdn is null)::int as free
        from msisdn_supplier s join msisdn_pool p on p.supplier_id = s.id join reseller r on r.id = p.reseller_id
        left join subscriber_msisdn m on m.msisdn = p.msisdn
        where ${poolOwners(principalOf(request))} group by s.id order by s.name`.execute(db);
      return rows.rows;
    },
  );

  app.get(
    '/portal/inventory/msisdn-countries',
    { config, schema: { tags, summary: 'The countries of the numbers the caller sees, with their counts', response: { 200: msisdnCountriesSchema } } },
    async (request) => {
      const rows = await sql<Record<string, unknown>>`select p.country, count(*)::int as total, count(*) filter (where m.msisdn is null)::int as free
        from msisdn_pool p join reseller r on r.id = p.reseller_id left join subscriber_msisdn m on m.msisdn = p.msisdn
        where ${poolOwners(principalOf(request))} group by p.country order by p.country`.execute(db);
      return rows.rows;
    },
  );

  app.post(
    '/portal/inventory/msisdn-list',
    {
      config,
      schema: {
        tags,
        summary: 'A page of the pool: by country, supplier, assigned or free, and part of the number',
        body: objectBody({
          page: {
            type: 'object',
            properties: { page: pageNumberSchema(), size: pageSizeSchema(500) },
            additionalProperties: false,
            errorMessage: { type: 'validation.page.invalid', additionalProperties: 'validation.unknownField' },
          },
          country: { type: ['string', 'null'], pattern: '^[A-Z]{2}$', maxLength: 2, errorMessage: 'validation.country.invalid' },
          supplierId: { ...idSchema(), type: ['integer', 'null'], errorMessage: 'validation.invalid' },
          assigned: { type: ['boolean', 'null'], errorMessage: 'validation.invalid' },
          subscriberResellerId: {
            ...idSchema({ min: -1 }),
            type: ['integer', 'null'],
            description: 'Only numbers that may go to a subscriber of this reseller',
            errorMessage: 'validation.invalid',
          },
          searchKey: { ...searchTextSchema(15), pattern: '^\\+?[0-9]*$' },
        }),
        response: { 200: msisdnPageSchema },
      },
    },
    async (request) => {
      const body = (request.body ?? {}) as {
        page?: { page?: number; size?: number };
        country?: string | null;
        supplierId?: number | null;
        assigned?: boolean | null;
        subscriberResellerId?: number | null;
        searchKey?: string | null;
      };
      const page = body.page?.page ?? 0;
      const size = body.page?.size ?? 50;
      const principal = principalOf(request);
      const conditions = [poolOwners(principal)];
      if (body.country) conditions.push(sql<boolean>`p.country = ${body.country}`);
      if (body.supplierId) conditions.push(sql<boolean>`p.supplier_id = ${body.supplierId}`);
      if (body.assigned === true) conditions.push(sql<boolean>`m.msisdn is not null`);
      if (body.assigned === false) conditions.push(sql<boolean>`m.msisdn is null`);
      if (body.subscriberResellerId != null)
        conditions.push(sql<boolean>`starts_with(coalesce((select path from reseller where id = ${body.subscriberResellerId}), ''), r.path)`);
      const key = body.searchKey?.replace(/^\+/, '');
      if (key) conditions.push(sql<boolean>`p.msisdn like ${`%${escapeLike(key)}%`}`);
      const where = sql.join(conditions, sql` and `);
      const from = sql`msisdn_pool p join reseller r on r.id = p.reseller_id join msisdn_supplier s on s.id = p.supplier_id
        left join subscriber_msisdn m on m.msisdn = p.msisdn`;
      const [{ n }] = (await sql<{ n: number }>`select count(*)::int as n from ${from} where ${where}`.execute(db)).rows;
      const rows = await sql<Record<string, unknown>>`select p.msisdn, p.country, p.supplier_id, s.name as supplier_name, p.reseller_id,
        r.name as reseller_name, m.subscriber_id, m.msisdn is not null as assigned
        from ${from} where ${where} order by p.msisdn limit ${size} offset ${page * size}`.execute(db);
      return envelope(rows.rows, n, page, size);
    },
  );
}
