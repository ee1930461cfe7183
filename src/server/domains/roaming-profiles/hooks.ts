import { sql, type Kysely } from 'kysely';
import { isCountryCode } from '@shared/countries';
import type { EntityHooks } from '../../engine/routes';
import { fieldError, invalid } from '../../http/errors';
import type { Database } from '../../db/types';

type Body = Record<string, unknown>;

export const RATE_FIELDS = ['moCall', 'mtCall', 'moSms', 'mtSms', 'data'] as const;
export type Rate = { country: string } & Partial<Record<(typeof RATE_FIELDS)[number], number | string>>;

/** Properties kept in tables of their own beside `roaming_profile`. */
const CHILDREN = ['sponsorIds', 'allowedListIds', 'rates'] as const;

export async function sponsorIdsOf(db: Kysely<Database>, profileId: number): Promise<number[]> {
  const rows = await db.selectFrom('roamingProfileSponsor').select('sponsorId').where('roamingProfileId', '=', profileId).orderBy('sponsorId').execute();
  return rows.map((r) => Number(r.sponsorId));
}

/** The rates of a profile by country; numeric columns come back as exact decimal text. */
export function ratesQuery(db: Kysely<Database>, profileId: number) {
  return db
    .selectFrom('roamingProfileRate')
    .select(['country', ...RATE_FIELDS])
    .where('roamingProfileId', '=', profileId)
    .orderBy('country');
}

/** Each country once, and a real one. */
export function checkRates(rates: Rate[]): void {
  const seen = new Set<string>();
  for (const rate of rates) {
    if (!isCountryCode(rate.country) || seen.has(rate.country)) throw invalid([fieldError('rates', 'country', 'validation.rates.invalid')]);
    seen.add(rate.country);
  }
}

/** Replaces the rates of the countries given (all of them when `replaceAll`). */
export async function writeRates(trx: Kysely<Database>, profileId: number, rates: Rate[], replaceAll: boolean) {
  let remove = trx.deleteFrom('roamingProfileRate').where('roamingProfileId', '=', profileId);
  if (!replaceAll) remove = remove.where('country', 'in', rates.length ? rates.map((r) => r.country) : ['']);
  await remove.execute();
  if (rates.length) {
    await trx
      .insertInto('roamingProfileRate')
      .values(rates.map((r) => ({ roamingProfileId: profileId, country: r.country, ...Object.fromEntries(RATE_FIELDS.map((f) => [f, String(r[f] ?? 0)])) })))
      .execute();
  }
}

/** A new or changed profile waits for an administrator's review before SIM orders may use it. */
export const PENDING = { reviewState: 'pending', reviewedAt: null, updatedAt: sql<Date>`now()` };

/**
 * Roaming profiles: sponsors, allowed lists and rates live in tables of their own (that each sponsor and allowed
 * list is one the caller may use is the engine's reference check); a sponsor once added stays (the server refuses an
 * update that leaves one out); every create or change goes back to review.
 */
export const roamingProfileHooks: EntityHooks = {
  async beforeWrite({ mode, values, existing, trx }) {
    const stored: Body = { ...values, ...PENDING };
    for (const child of CHILDREN) delete stored[child];
    if (Array.isArray(values.rates)) checkRates(values.rates as Rate[]);
    if (mode === 'update' && existing && Array.isArray(values.sponsorIds)) {
      const kept = new Set(values.sponsorIds as number[]);
      if ((await sponsorIdsOf(trx, Number(existing.id))).some((id) => !kept.has(id))) {
        throw invalid([fieldError('sponsorIds', 'sponsorRemoved', 'validation.sponsor.removed')]);
      }
    }
    return stored;
  },

  async afterWrite({ id, values, trx }) {
    if (Array.isArray(values.sponsorIds) && values.sponsorIds.length) {
      await trx
        .insertInto('roamingProfileSponsor')
        .values((values.sponsorIds as number[]).map((sponsorId) => ({ roamingProfileId: id, sponsorId })))
        .onConflict((oc) => oc.columns(['roamingProfileId', 'sponsorId']).doNothing())
        .execute();
    }
    if (Array.isArray(values.allowedListIds)) {
      await trx.deleteFrom('roamingProfileAllowedList').where('roamingProfileId', '=', id).execute();
      if (values.allowedListIds.length) {
        await trx
          .insertInto('roamingProfileAllowedList')
          .values((values.allowedListIds as number[]).map((allowedListId) => ({ roamingProfileId: id, allowedListId })))
          .execute();
      }
    }
    if (Array.isArray(values.rates)) await writeRates(trx, id, values.rates as Rate[], true);
  },

  async afterRead(row, db) {
    const id = Number(row.id);
    const lists = await db
      .selectFrom('roamingProfileAllowedList')
      .select('allowedListId')
      .where('roamingProfileId', '=', id)
      .orderBy('allowedListId')
      .execute();
    const rates = await ratesQuery(db, id).execute();
    return {
      ...row,
      sponsorIds: await sponsorIdsOf(db, id),
      allowedListIds: lists.map((l) => Number(l.allowedListId)),
      rates: rates.map((r) => ({ country: r.country, ...Object.fromEntries(RATE_FIELDS.map((f) => [f, Number(r[f])])) })),
    };
  },
};
