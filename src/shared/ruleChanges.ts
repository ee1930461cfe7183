/** What applying rules would change, as a rule file's preview tells it before anything is written. */

type Row = Record<string, unknown>;

export interface RuleChange {
  /** The rule as the plan has it now. */
  before: Row;
  /** The rule as it would be. */
  after: Row;
  /** The properties whose values differ. */
  fields: string[];
}

export interface RuleChanges {
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  /** The first rules of each kind of change, one by one; the counts above cover them all. */
  samples: { added: Row[]; changed: RuleChange[]; removed: Row[] };
}

/** How many rules of each kind of change are listed one by one. */
export const CHANGE_SAMPLES = 50;

export const NO_CHANGES = (): RuleChanges => ({ added: 0, changed: 0, removed: 0, unchanged: 0, samples: { added: [], changed: [], removed: [] } });
