/** What the Blueprint theme reads from RJSF's `formContext`. */
import type { CustomFieldDefinition } from '@shared/customFields';
import type { PrivilegeItem } from '@shared/privileges';

/** One choice of a reference select, e.g. a reseller: its id and its display name. */
export interface ReferenceOption {
  value: string | number;
  label: string;
  /** The reseller the row belongs to, when it belongs to one (see the `sameReseller` widget option). */
  resellerId?: number;
  /** A reseller's own parent (see the `outsideSubtreeOf` widget option). */
  parentId?: number | null;
}

export interface BlueprintFormContext {
  /** Choices of reference widgets, by referenced entity (a property's `x-reference`, e.g. `reseller`). */
  options?: Record<string, ReferenceOption[]>;
  /** When set, the submit button template adds a Cancel button that calls it. */
  onCancel?: () => void;
  /** Privileges the signed-in editor holds: all a role editor may grant. */
  grantable?: PrivilegeItem[];
  /** The data being edited, for widgets whose choices depend on another field (`sameReseller`). */
  data?: Record<string, unknown>;
  /** The editor's own reseller: a row created without one belongs to it. */
  ownResellerId?: number;
  /** Fields the editor sees but may not change (a tenant's commercial fields, to a user of that tenant). */
  lockedFields?: readonly string[];
  /** Top-level fields whose values break a rule: while Save is disabled, the submit template names them. */
  invalidFields?: readonly string[];
  /** The custom fields that apply to the edited row (the `custom` field's inputs), in form order. */
  customFields?: readonly CustomFieldDefinition[];
}

export function formContextOf(registry: { formContext?: unknown }): BlueprintFormContext {
  return (registry.formContext ?? {}) as BlueprintFormContext;
}
