import mccMnc from 'mcc-mnc-list';
import { sql, type Kysely } from 'kysely';
import { isCountryCode } from '@shared/countries';
import type { MobileNetwork } from '@shared/networks';
import type { Database } from '../../db/types';

export type NetworkRow = MobileNetwork;

/** Statuses of assignments that are not a network one can roam on. */
const NOT_A_NETWORK = new Set(['Not operational', 'Returned spare', 'Reserved']);

/**
 * Every national public mobile network of the mcc-mnc-list package (ITU and Wikipedia data), one per PLMN,
 * with an ISO country: shared codes ("AU/CC/CX") go to their first country, regions ("GE-AB") to theirs.
 */
export function catalogueNetworks(): NetworkRow[] {
  const byPlmn = new Map<string, NetworkRow>();
  for (const n of mccMnc.all()) {
    if (n.type !== 'National' || NOT_A_NETWORK.has(n.status)) continue;
    const country = (n.countryCode ?? '').split('/')[0].slice(0, 2);
    if (!isCountryCode(country) || !/^\d{3}$/.test(n.mcc) || !/^\d{2,3}$/.test(n.mnc)) continue;
    const plmn = `${n.mcc}${n.mnc}`;
    if (byPlmn.has(plmn)) continue;
    byPlmn.set(plmn, {
      plmn,
      mcc: n.mcc,
      mnc: n.mnc,
      country,
      operator: n.operator?.trim() || null,
      brand: n.brand?.trim() || null,
      status: n.status || null,
      bands: n.bands || null,
    });
  }
  return [...byPlmn.values()];
}

export interface RefreshReport {
  total: number;
  added: string[];
  updated: string[];
  withdrawn: string[];
  restored: string[];
}

const FIELDS = ['mcc', 'mnc', 'country', 'operator', 'brand', 'status', 'bands'] as const;

/** Brings the network table in line with the catalogue and reports what changed, by PLMN. */
export async function refreshNetworks(db: Kysely<Database>, source: NetworkRow[] = catalogueNetworks()): Promise<RefreshReport> {
  return db.transaction().execute(async (trx) => {
    const stored = await trx
      .selectFrom('network')
      .select(['plmn', ...FIELDS, 'withdrawnAt'])
      .execute();
    const known = new Map(stored.map((r) => [r.plmn as string, r]));
    const report: RefreshReport = { total: source.length, added: [], updated: [], withdrawn: [], restored: [] };
    const fresh: NetworkRow[] = [];
    for (const n of source) {
      const old = known.get(n.plmn);
      known.delete(n.plmn);
      if (!old) {
        fresh.push(n);
        report.added.push(n.plmn);
        continue;
      }
      const changed = FIELDS.some((f) => (old[f] ?? null) !== n[f]);
      if (old.withdrawnAt) report.restored.push(n.plmn);
      else if (changed) report.updated.push(n.plmn);
      if (changed || old.withdrawnAt) {
        await trx
          .updateTable('network')
          .set({ ...n, withdrawnAt: null, updatedAt: sql`now()` })
          .where('plmn', '=', n.plmn)
          .execute();
      }
    }
    for (let i = 0; i < fresh.length; i += 500) {
      await trx
        .insertInto('network')
        .values(fresh.slice(i, i + 500))
        .onConflict((oc) => oc.column('plmn').doNothing())
        .execute();
    }
    report.withdrawn = [...known.values()].filter((r) => !r.withdrawnAt).map((r) => r.plmn as string);
    if (report.withdrawn.length) {
      await trx
        .updateTable('network')
        .set({ withdrawnAt: sql`now()`, updatedAt: sql`now()` })
        .where('plmn', 'in', report.withdrawn)
        .execute();
    }
    return report;
  });
}

/** Fills an empty network table at start; several servers starting together insert each network once. */
export async function ensureNetworks(db: Kysely<Database>): Promise<void> {
  if (await db.selectFrom('network').select('id').limit(1).executeTakeFirst()) return;
  const rows = catalogueNetworks();
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('network')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.column('plmn').doNothing())
      .execute();
  }
}
