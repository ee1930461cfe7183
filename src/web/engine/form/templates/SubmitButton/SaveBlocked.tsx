import type { MouseEvent } from 'react';
import { Classes } from '@blueprintjs/core';
import { FormattedMessage, FormattedList } from 'react-intl';
import { orderProperties, type RJSFSchema, type UiSchema } from '@rjsf/utils';
import { useTranslate } from '../../messages';

export interface SaveBlockedProps {
  /** Fields whose values break a rule. */
  fields: readonly string[];
  /** The form's root schema and uiSchema: field titles and their order. */
  schema: RJSFSchema;
  uiSchema?: UiSchema;
  /** The id the reason takes, for the Save button's `aria-describedby`. */
  id: string;
  /** Names of fields inside a property (`custom.<key>`) that the schema does not title: their text as it is. */
  labels?: Readonly<Record<string, string>>;
}

/** A field's control, as RJSF names it (`root_<name>`, `root_custom_<key>` for `custom.<key>`). */
export const fieldElementId = (name: string) => `root_${name.replace(/\./g, '_')}`;

function focusField(event: MouseEvent, name: string) {
  event.preventDefault();
  const element = document.getElementById(fieldElementId(name));
  element?.scrollIntoView({ block: 'center' });
  element?.focus();
}

/**
 * Why Save is disabled: "Fix 2 fields: Name and Reference", each name a link that takes the cursor to its field,
 * in the form's field order.
 */
export function SaveBlocked({ fields, schema, uiSchema, id, labels = {} }: SaveBlockedProps) {
  const translate = useTranslate();
  const names = Object.keys(schema.properties ?? {});
  const order = uiSchema?.['ui:order'] as string[] | undefined;
  // A property's own fields (`custom.<key>`) stand where the property stands.
  const blocking = orderProperties(names, order).flatMap((name) => fields.filter((field) => field === name || field.startsWith(`${name}.`)));
  if (!blocking.length) return null;
  const titleOf = (name: string) => {
    if (labels[name] !== undefined) return labels[name];
    const prop = schema.properties?.[name];
    const title = typeof prop === 'object' ? prop.title : undefined;
    return title ? translate(title) : name;
  };
  return (
    <span id={id} className={Classes.TEXT_MUTED} data-testid="save-blocked">
      <FormattedMessage id="form.blocked" values={{ count: blocking.length }} />{' '}
      <FormattedList
        type="conjunction"
        value={blocking.map((name) => (
          <a key={name} href={`#${fieldElementId(name)}`} onClick={(event) => focusField(event, name)} data-field={name}>
            {titleOf(name)}
          </a>
        ))}
      />
    </span>
  );
}
