import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import Papa from 'papaparse';
import { countryNames, isCountryCode } from '@shared/countries';
import type { EntitySchema } from '@shared/schema';
import type { FieldError } from '@shared/wire';
import type { Engine } from '../../db';
import { queryBatches, sendCsv } from '../../engine/csv';
import { EntityRepository } from '../../engine/repository';
import { conflict, fieldError, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idSchema, INT_MIN, pathId, queryId } from '../../http/input';
import { checkRates, PENDING, RATE_FIELDS, ratesQuery, writeRates, type Rate } from './hooks';
import type { Database } from '../../db/types';
import { subtreePattern } from '../../http/tenancy';

/** Import files are at most this many bytes ("less than 4 MB"). */
export const IMPORT_MAX_BYTES = 4 * 1024 * 1024;

/** Columns of the import file, and of the v2 download, which can be imported again. */
export const IMPORT_COLUMNS = ['resellerId', 'name', 'reference', 'slots', 'country', ...RATE_FIELDS] as const;

/** A rate as the import reads it: a decimal of at most 4 places, 0 or more, below 10^8. */
const RATE_TEXT = /^\d{1,8}(\.\d{1,4})?$/;

export interface RejectedRow {
  /** Line of the file (the header is line 1). */
  line: number;
  field: string;
  messageId: string;
  message: string;
}

export function registerRoamingProfileRoutes(app: FastifyInstance, db: Kysely<Database>, engine: Engine, schema: EntitySchema) {
  const repo = new EntityRepository(db, schema);
  const visibleProfile = async (request: FastifyRequest) => {
    const row = await repo.get(pathId(request), { principal: principalOf(request) });
    if (!row) throw notFound();
    return row;
  };

  // Profiles a SIM order may use: approved ones of the caller's subtree, optionally of one reseller and slot count.
  app.get(
    '/portal/roaming-profiles',
    {
      config: { privilege: ['RoamingProfile', 'SimOrders'] },
      schema: {
        tags: ['roaming-profiles'],
        summary: 'Approved roaming profiles a SIM order may use',
        querystring: { type: 'object', properties: { reseller_id: idSchema({ min: INT_MIN }), slot_count: idSchema({ min: INT_MIN }) } },
      },
    },
    async (request) => {
      const resellerId = queryId(request, 'reseller_id', { min: INT_MIN });
      const slotCount = queryId(request, 'slot_count', { min: INT_MIN });
      const principal = principalOf(request);
      let q = db
        .selectFrom('roamingProfile as p')
        .innerJoin('reseller as r', 'r.id', 'p.resellerId')
        .select(['p.id', 'p.name', 'p.reference', 'p.slots', 'p.resellerId', 'r.name as resellerName'])
        .where('p.reviewState', '=', 'approved')
        .where('r.path', 'like', subtreePattern(principal));
      if (resellerId !== undefined) q = q.where('p.resellerId', '=', resellerId);
      if (slotCount !== undefined) q = q.where('p.slots', '=', slotCount);
      return q.orderBy('p.name').orderBy('p.id').execute();
    },
  );

  // The price table of one profile, one line per country with its name.
  app.post(
    '/portal/roaming-profiles/:id/download',
    { config: { privilege: 'RoamingProfile' }, schema: { tags: ['roaming-profiles'], summary: 'A roaming profile as CSV' } },
    async (request, reply) => {
      const profile = await visibleProfile(request);
      const names = countryNames('en');
      const header = ['country', 'countryName', ...RATE_FIELDS];
      return sendCsv(reply, `roaming-profile-${profile.id}-rates.csv`, header, queryBatches(db, engine, ratesQuery(db, Number(profile.id))), (r) => [
        r.country,
        names[String(r.country)] ?? '',
        ...RATE_FIELDS.map((f) => r[f]),
      ]);
    },
  );

  // The whole profile in the import format, so a download can be edited and imported again.
  app.post(
    '/portal/v2/roaming-profiles/:id/download',
    { config: { privilege: 'RoamingProfile' }, schema: { tags: ['roaming-profiles'], summary: "A roaming profile as CSV, in the import's columns" } },
    async (request, reply) => {
      const p = await visibleProfile(request);
      return sendCsv(reply, `roaming-profile-${p.id}.csv`, IMPORT_COLUMNS, queryBatches(db, engine, ratesQuery(db, Number(p.id))), (r) => [
        p.resellerId,
        p.name,
        p.reference,
        p.slots,
        r.country,
        ...RATE_FIELDS.map((f) => r[f]),
      ]);
    },
  );

  // The administrator's review: approving makes a profile usable in SIM orders.
  app.post(
    '/portal/admin/roaming-profiles/:id/approve',
    { config: { adminOnly: true }, schema: { tags: ['roaming-profiles'], summary: 'Approves a roaming profile under review' } },
    async (request) => {
      const profile = await visibleProfile(request);
      await db
        .updateTable('roamingProfile')
        .set({ reviewState: 'approved', reviewedAt: sql`now()` })
        .where('id', '=', Number(profile.id))
        .execute();
      return repo.get(Number(profile.id), { principal: principalOf(request) });
    },
  );

  // Marks an approved profile as pushed to the core network; a profile under review is not pushed.
  app.get(
    '/portal/admin/sync-roaming-profiles/:id',
    { config: { adminOnly: true }, schema: { tags: ['roaming-profiles'], summary: 'Pushes an approved roaming profile to the core network' } },
    async (request) => {
      const profile = await visibleProfile(request);
      if (profile.reviewState !== 'approved') throw conflict([fieldError('reviewState', 'approved', 'validation.profile.notApproved')]);
      const row = await db
        .updateTable('roamingProfile')
        .set({ syncedAt: sql`now()` })
        .where('id', '=', Number(profile.id))
        .returning(['id', 'syncedAt'])
        .executeTakeFirstOrThrow();
      return { id: row.id, syncedAt: row.syncedAt!.toISOString() };
    },
  );

  // CSV import: each line is one country's rates of a profile (named by reseller and name); lines that break a
  // rule are reported and left out, the others create or update their profiles, which go back to review.
  app.register(async (scope) => {
    scope.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string', bodyLimit: IMPORT_MAX_BYTES }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error: Error & { code?: string }, _request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return reply.status(400).send(invalid([fieldError('file', 'size', 'validation.file.tooLarge')]).toJSON());
      throw error;
    });
    scope.post(
      '/portal/admin/import-roaming-profiles',
      { config: { adminOnly: true }, bodyLimit: IMPORT_MAX_BYTES, schema: { tags: ['roaming-profiles'], summary: 'Imports roaming profiles from a CSV file' } },
      async (request) => {
        if (typeof request.body !== 'string' || !request.body.trim()) throw invalid([fieldError('file', 'required', 'validation.file.required')]);
        return importProfiles(db, request.body);
      },
    );
  });
}

interface ProfileRows {
  resellerId: number;
  name: string;
  reference: string;
  slots: number;
  rates: Rate[];
}

/** Reads, checks and stores an import file; answers what was written and every rejected line. */
export async function importProfiles(db: Kysely<Database>, text: string) {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim() });
  const missing = IMPORT_COLUMNS.filter((c) => !parsed.meta.fields?.includes(c));
  if (missing.length) throw invalid(missing.map((c) => fieldError(c, 'column', 'validation.import.column')));

  const rejected: RejectedRow[] = [];
  const reject = (line: number, field: string, messageId: string) => {
    const e: FieldError = fieldError(field, 'import', messageId);
    rejected.push({ line, field, messageId, message: e.message });
  };
  const resellers = new Set((await db.selectFrom('reseller').select('id').execute()).map((r) => Number(r.id)));
  const profiles = new Map<string, ProfileRows>();

  parsed.data.forEach((raw, index) => {
    const line = index + 2;
    const v = Object.fromEntries(IMPORT_COLUMNS.map((c) => [c, String(raw[c] ?? '').trim()])) as Record<(typeof IMPORT_COLUMNS)[number], string>;
    if (!/^-?\d{1,10}$/.test(v.resellerId) || !resellers.has(Number(v.resellerId))) return reject(line, 'resellerId', 'validation.select.required');
    if (v.name.length < 2 || v.name.length > 50) return reject(line, 'name', 'validation.name.invalid');
    if (!/^[A-Za-z0-9_.-]{6,16}$/.test(v.reference)) return reject(line, 'reference', 'validation.reference.invalid');
    if (!/^[1-4]$/.test(v.slots)) return reject(line, 'slots', 'validation.slots.invalid');
    const country = v.country.toUpperCase();
    if (!isCountryCode(country)) return reject(line, 'country', 'validation.country.invalid');
    const bad = RATE_FIELDS.find((f) => !RATE_TEXT.test(v[f]));
    if (bad) return reject(line, bad, 'validation.cost.invalid');
    const key = `${v.resellerId}/${v.name.toLowerCase()}`;
    const profile = profiles.get(key) ?? { resellerId: Number(v.resellerId), name: v.name, reference: v.reference, slots: Number(v.slots), rates: [] };
    if (profile.reference !== v.reference) return reject(line, 'reference', 'validation.import.inconsistent');
    if (profile.slots !== Number(v.slots)) return reject(line, 'slots', 'validation.import.inconsistent');
    if (profile.rates.some((r) => r.country === country)) return reject(line, 'country', 'validation.rates.invalid');
    profile.rates.push({ country, ...Object.fromEntries(RATE_FIELDS.map((f) => [f, v[f]])) });
    profiles.set(key, profile);
  });

  let created = 0;
  let updated = 0;
  let rates = 0;
  await db.transaction().execute(async (trx) => {
    for (const p of profiles.values()) {
      checkRates(p.rates);
      const existing = await trx
        .selectFrom('roamingProfile')
        .select('id')
        .where('resellerId', '=', p.resellerId)
        .where(sql`lower(name)`, '=', p.name.toLowerCase())
        .executeTakeFirst();
      let id: number;
      if (existing) {
        id = Number(existing.id);
        await trx
          .updateTable('roamingProfile')
          .set({ reference: p.reference, slots: p.slots, ...PENDING })
          .where('id', '=', id)
          .execute();
        updated += 1;
      } else {
        id = Number(
          (
            await trx
              .insertInto('roamingProfile')
              .values({ name: p.name, reference: p.reference, slots: p.slots, resellerId: p.resellerId, ...PENDING })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        );
        created += 1;
      }
      await writeRates(trx, id, p.rates, false);
      rates += p.rates.length;
    }
  });
  return { created, updated, rates, rejected };
}
