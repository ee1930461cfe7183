/** What the Blueprint theme reads from RJSF's `formContext`. */
import type { PrivilegeItem } from '@shared/privileges';

/** One choice of a reference select, e.g. a reseller: its id and its display name. */
export interface ReferenceOption {
  value: string | number;
  label: string;
}

export interface BlueprintFormContext {
  /** Choices of reference widgets, by referenced entity (a property's `x-reference`, e.g. `reseller`). */
  options?: Record<string, ReferenceOption[]>;
  /** When set, the submit button template adds a Cancel button that calls it. */
  onCancel?: () => void;
  /** Privileges the signed-in editor holds: all a role editor may grant. */
  grantable?: PrivilegeItem[];
}

export function formContextOf(registry: { formContext?: unknown }): BlueprintFormContext {
  return (registry.formContext ?? {}) as BlueprintFormContext;
}
