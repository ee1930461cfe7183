import type { Kysely } from 'kysely';
import { effectiveLab, LABS, type LabKey, type LabState } from '@shared/labs';
import type { Database } from '../../db/types';
import { resellerPathIds } from '../../http/principal';

/** How long a tenant's states are kept: short, so servers sharing a database agree within seconds of a switch. */
export const LAB_CACHE_MS = 5_000;

/**
 * Effective lab states per tenant, kept for `LAB_CACHE_MS`: a gated route costs no query on most requests. A write
 * in this process forgets them all at once (a switch also changes the tenants below); other processes see it when
 * their copy runs out.
 */
export class LabStates {
  private readonly kept = new Map<string, { until: number; states: Record<LabKey, LabState> }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly ttlMs = LAB_CACHE_MS,
  ) {}

  forget() {
    this.kept.clear();
  }

  /** Every lab's state for the tenant at `path`. */
  async of(path: string): Promise<Record<LabKey, LabState>> {
    const known = this.kept.get(path);
    if (known && known.until > Date.now()) return known.states;
    const ids = resellerPathIds(path);
    const rows = await this.db.selectFrom('labSwitch').select(['resellerId', 'lab', 'enabled']).where('resellerId', 'in', ids).execute();
    const states = Object.fromEntries(
      LABS.map((lab) => [lab.key, effectiveLab(lab, ids, new Map(rows.filter((r) => r.lab === lab.key).map((r) => [r.resellerId, r.enabled])))]),
    ) as Record<LabKey, LabState>;
    // A tree of resellers is small; the bound only keeps a forgotten tenant from staying forever.
    if (this.kept.size > 10_000) this.kept.clear();
    this.kept.set(path, { until: Date.now() + this.ttlMs, states });
    return states;
  }
}
