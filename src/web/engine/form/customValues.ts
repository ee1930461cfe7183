/**
 * A form's custom field values (the row's `custom` object): what each value breaks, shown at once, and the change
 * a save sends. The form's precompiled validator sees `custom` only as an object, since its fields differ by tenant;
 * these checks are the definitions' own (`customValueProblem`), and the server judges again with the same rules.
 */
import type { ErrorSchema } from '@rjsf/utils';
import type { IntlShape } from 'react-intl';
import { CUSTOM_PROPERTY, customName, customValueProblem, type CustomFieldDefinition } from '@shared/customFields';
import { isLocale, isRightToLeft } from '@web/core/locales';
import { formatCustomValue } from '../customFields';

type Values = Record<string, unknown>;

export const valuesOf = (data: Values | undefined): Values => {
  const values = data?.[CUSTOM_PROPERTY];
  return values && typeof values === 'object' && !Array.isArray(values) ? (values as Values) : {};
};

/** A value as it is checked and sent: text trimmed, the empty text none. */
export function settledValue(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  const text = value.trim();
  return text === '' ? null : text;
}

/** The names (`custom.<key>`) of the fields whose values break a rule, with the message id of each. */
export function customProblems(defs: readonly CustomFieldDefinition[], data: Values): Map<string, string> {
  const values = valuesOf(data);
  const problems = new Map<string, string>();
  for (const def of defs) {
    const problem = customValueProblem(def, settledValue(values[def.key]));
    if (problem) problems.set(customName(def), problem);
  }
  return problems;
}

/** Problems as RJSF errors under `custom.<key>`, translated, for the fields `shown` lets through. */
export function customErrorSchema(problems: ReadonlyMap<string, string>, intl: IntlShape, shown: (name: string) => boolean): ErrorSchema {
  const nested: Record<string, { __errors: string[] }> = {};
  for (const [name, id] of problems) {
    if (!shown(name)) continue;
    nested[name.slice(CUSTOM_PROPERTY.length + 1)] = { __errors: [intl.formatMessage({ id })] };
  }
  return (Object.keys(nested).length ? { [CUSTOM_PROPERTY]: nested } : {}) as ErrorSchema;
}

/**
 * What a save sends of the custom values: each applicable field whose value differs from the record's, null for a
 * cleared one (the server merges what is sent over what is stored). Nothing when nothing changed, so a form that
 * does not touch them never sends them.
 */
export function customChanges(defs: readonly CustomFieldDefinition[], data: Values, record?: Values): Values | undefined {
  const now = valuesOf(data);
  const before = valuesOf(record);
  const changes: Values = {};
  for (const def of defs) {
    const value = settledValue(now[def.key]);
    if (value !== settledValue(before[def.key])) changes[def.key] = value;
  }
  return Object.keys(changes).length ? changes : undefined;
}

/** What a field allows, as its hint says it: range, length, days or format. */
export function customHint(intl: IntlShape, def: CustomFieldDefinition): string | undefined {
  const has = (v: number | string | null | undefined): v is number | string => v !== undefined && v !== null && v !== '';
  const text = (id: string, values: Record<string, string>) => intl.formatMessage({ id }, values);
  const show = (v: unknown) => formatCustomValue(intl, def, v);
  const rightToLeft = isLocale(intl.locale) && isRightToLeft(intl.locale);
  switch (def.type) {
    case 'number': {
      const [min, max] = [def.minimum, def.maximum];
      if (has(min) && has(max)) return text('customValue.hint.range', { min: show(min), max: show(max) });
      if (has(min)) return text('customValue.hint.min', { min: show(min) });
      return has(max) ? text('customValue.hint.max', { max: show(max) }) : undefined;
    }
    case 'date': {
      const [earliest, latest] = [def.earliest, def.latest];
      if (has(earliest) && has(latest)) return text('customValue.hint.dates', { earliest: show(earliest), latest: show(latest) });
      if (has(earliest)) return text('customValue.hint.earliest', { earliest: show(earliest) });
      return has(latest) ? text('customValue.hint.latest', { latest: show(latest) }) : undefined;
    }
    case 'text': {
      const parts: string[] = [];
      const [min, max] = [def.minimum, def.maximum];
      const count = (n: number) => intl.formatNumber(n);
      if (has(min) && has(max)) parts.push(text('customValue.hint.length', { min: count(min), max: count(max) }));
      else if (has(min)) parts.push(text('customValue.hint.minLength', { min: count(min) }));
      else if (has(max)) parts.push(text('customValue.hint.maxLength', { max: count(max) }));
      // A pattern reads left to right whatever the language: isolated, so Hebrew text around it does not reorder it.
      if (has(def.pattern)) parts.push(text('customValue.hint.pattern', { pattern: rightToLeft ? `\u2066${def.pattern}\u2069` : def.pattern }));
      return parts.length ? parts.join(' · ') : undefined;
    }
    case 'choice':
      return undefined;
  }
}
