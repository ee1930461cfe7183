/** A row of any entity as it travels over the wire; its shape is described by the entity's schema. */
export type EntityRow = Record<string, unknown>;

/** One choice of a select, e.g. a reseller for an account. */
export interface SelectOption {
  value: string | number;
  label: string;
  /** The reseller the row belongs to, when it belongs to one. */
  resellerId?: number;
  /** False for a plan the user sees but may not give (the one its parent assigned its own reseller). */
  assignable?: boolean;
}
