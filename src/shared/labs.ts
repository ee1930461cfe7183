/**
 * Labs: features still being tried, which a tenant switches on or off for itself and the resellers below it. The
 * server refuses a route that declares a lab (`config: { lab }`) while the lab is off for the caller's tenant; the
 * web app hides the feature (`useLab`). The rule deciding a tenant's state is `effectiveLab` (see docs/labs.md).
 */

export interface Lab {
  key: string;
  /** The state of a tenant where neither it nor a reseller above it switched the lab. */
  defaultEnabled: boolean;
  /** Message ids of the lab's name and of what it does. */
  name: string;
  description: string;
}

export const LABS = [
  {
    key: 'subscriberSms',
    defaultEnabled: true,
    name: 'lab.subscriberSms.name',
    description: 'lab.subscriberSms.description',
  },
  {
    key: 'subscriberCsvUpdate',
    defaultEnabled: true,
    name: 'lab.subscriberCsvUpdate.name',
    description: 'lab.subscriberCsvUpdate.description',
  },
] as const satisfies readonly Lab[];

export type LabKey = (typeof LABS)[number]['key'];

export const LAB_KEYS: readonly LabKey[] = LABS.map((l) => l.key);

export const isLabKey = (key: unknown): key is LabKey => typeof key === 'string' && (LAB_KEYS as readonly string[]).includes(key);

export const labOf = (key: LabKey): Lab => LABS.find((l) => l.key === key)!;

export interface LabState {
  enabled: boolean;
  /** A reseller above the tenant switched the lab off: the tenant cannot switch it on. */
  locked: boolean;
}

/**
 * A tenant's state of one lab from the switches along its reseller path (`switches` by reseller id, `path` from
 * the provider down to the tenant): off when the tenant or a reseller above it switched it off; else on when one
 * of them switched it on; else the lab's default.
 */
export function effectiveLab(lab: Lab, path: readonly number[], switches: ReadonlyMap<number, boolean>): LabState {
  const set = path.filter((id) => switches.has(id));
  const locked = path.slice(0, -1).some((id) => switches.get(id) === false);
  if (set.some((id) => switches.get(id) === false)) return { enabled: false, locked };
  if (set.length) return { enabled: true, locked };
  return { enabled: lab.defaultEnabled, locked };
}

/** A lab as `GET /portal/labs` reports it for one tenant. */
export interface LabSwitch {
  key: LabKey;
  enabled: boolean;
  default: boolean;
  locked: boolean;
  /** The tenant's own switch, or null while it has none (the state comes from above or from the default). */
  own: boolean | null;
  /** Who set the tenant's own switch, and when. */
  updatedBy: string | null;
  updatedAt: string | null;
}

export interface TenantLabs {
  resellerId: number;
  labs: LabSwitch[];
}
