import { useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { Callout, Intent } from '@blueprintjs/core';
import type { IChangeEvent } from '@rjsf/core';
import { deepEquals, orderProperties, type UiSchema } from '@rjsf/utils';
import { CUSTOM_PREFIX, type CustomFieldDefinition } from '@shared/customFields';
import type { PrivilegeItem } from '@shared/privileges';
import type { EntitySchema } from '@shared/schema';
import type { FieldError } from '@shared/wire';
import { Form } from './BlueprintForm';
import type { BlueprintFormContext, ReferenceOption } from './context';
import { formSchemaOf, initialData, propertyOfFieldId, uiSchemaOf, writableData } from './entitySchema';
import { customChanges, customErrorSchema, customProblems, valuesOf } from './customValues';
import { createErrorTransformer, mergeErrorSchemas, pickFieldErrors, serverErrorSchema } from './errors';
import { formValidatorOf } from './validator';
import { messageOr } from '@web/core/messages';

type Data = Record<string, unknown>;

export interface EntityFormProps {
  /** The entity schema (schemas/<entity>.json): fields, rules, messages and `x-ui`. */
  schema: EntitySchema;
  /** The record to edit; leave out to create. Read again whenever its content changes. */
  formData?: Record<string, unknown>;
  /** Called with the writable fields that have a value, and null for those cleared. While a returned promise is pending, Save is disabled. */
  onSubmit: (data: Record<string, unknown>) => void | Promise<void>;
  /** Disables Save and shows it busy, e.g. while the mutation runs. */
  submitting?: boolean;
  /** Field errors of the last save, shown under their fields until edited; others above the form. */
  serverErrors?: FieldError[];
  /** Choices of reference fields by referenced entity, e.g. `{ reseller: [{ value: 1, label: 'Acme' }] }`. */
  options?: Record<string, ReferenceOption[]>;
  /** Adds a Cancel button. */
  onCancel?: () => void;
  /** Shows the record without Save. */
  readOnly?: boolean;
  /** Privileges the editor holds, for the role editor's privilege picker. */
  grantable?: PrivilegeItem[];
  /** Shows only these fields (a part of a record edited on its own, e.g. in a panel); the others are kept as they are. */
  fields?: readonly string[];
  /** Fields shown read-only: the editor may not change them (its own tenant's commercial fields). */
  lockedFields?: readonly string[];
  /** The editor's own reseller, which a new row belongs to unless another is chosen. */
  ownResellerId?: number;
  /** The custom fields that apply to the row, for a schema with custom values (`x-custom-fields`). */
  customFields?: readonly CustomFieldDefinition[];
}

const NO_FIELDS: ReadonlySet<string> = new Set();
const NO_CUSTOM: readonly CustomFieldDefinition[] = [];
const NO_PROBLEMS: ReadonlyMap<string, string> = new Map();

/** The names (`custom.<key>`) of the custom values that differ between two states of the data. */
function changedCustom(before: Data, after: Data): string[] {
  const [a, b] = [valuesOf(before), valuesOf(after)];
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => !deepEquals(a[key], b[key])).map((key) => `${CUSTOM_PREFIX}${key}`);
}

type ShownWhen = Record<string, readonly unknown[]>;

/** The fields `x-ui` shows only while another field holds one of some values (`ui:options.shownWhen`). */
function conditionalFields(ui: UiSchema): [string, ShownWhen][] {
  return Object.entries(ui).flatMap(([name, entry]) => {
    const when = (entry as UiSchema | undefined)?.['ui:options']?.shownWhen as ShownWhen | undefined;
    return name.startsWith('ui:') || !when ? [] : [[name, when] as [string, ShownWhen]];
  });
}

/** Whether data meets a `shownWhen`: every named field holds one of its values. */
const meets = (when: ShownWhen, data: Data) => Object.entries(when).every(([field, values]) => values.includes(data[field]));

/** The name a field error is tracked by: a custom value's own (`custom.<key>`), else its top-level property. */
const trackedName = (field: string) => (field.startsWith(CUSTOM_PREFIX) ? field.split('.').slice(0, 2).join('.') : field.split('.')[0]);

function withFields(set: ReadonlySet<string>, fields: readonly string[]): ReadonlySet<string> {
  return fields.every((field) => set.has(field)) ? set : new Set([...set, ...fields]);
}

/**
 * The create and edit form of an entity, generated from its schema. It validates on every change with the
 * schema's own rules and shows a field's errors once the user has changed or left that field (every field's,
 * after an attempt to submit). Save stays disabled while the data is invalid or a save is under way.
 */
export function EntityForm({
  schema,
  formData,
  onSubmit,
  submitting = false,
  serverErrors,
  options,
  onCancel,
  readOnly = false,
  grantable,
  fields,
  lockedFields,
  ownResellerId,
  customFields = NO_CUSTOM,
}: EntityFormProps) {
  const intl = useIntl();
  const formSchema = formSchemaOf(schema, formData ? 'edit' : 'create');
  const formValidator = formValidatorOf<Data, BlueprintFormContext>(formSchema);
  const names = useMemo(() => Object.keys(schema.properties), [schema]);
  // The property holding the row's custom values, when the schema has one.
  const customProp = useMemo(() => names.find((name) => schema.properties[name]['x-custom-fields']), [names, schema]);
  const fieldsKey = fields?.join(',');
  const hasCustom = customFields.length > 0;
  const editing = formData !== undefined;
  const lockedKey = lockedFields?.join(',') ?? '';
  const baseUiSchema = useMemo(() => {
    const ui = uiSchemaOf(schema);
    for (const name of lockedKey ? lockedKey.split(',') : [])
      ui[name] = { ...(ui[name] as object | undefined), 'ui:readonly': true, 'ui:help': 'form.field.protected' };
    // Fields set once, when the row is made (`ui:options.fixed`): read-only on an existing row, as the server keeps them.
    if (editing)
      for (const [name, entry] of Object.entries(ui))
        if ((entry as UiSchema | undefined)?.['ui:options']?.fixed) ui[name] = { ...(entry as UiSchema), 'ui:readonly': true, 'ui:help': 'form.field.fixed' };
    // No custom field applies: the values have nothing to show.
    if (customProp && !hasCustom) ui[customProp] = { ...(ui[customProp] as object | undefined), 'ui:widget': 'hidden' };
    if (fieldsKey === undefined) return ui;
    // A part of a record edited on its own sits in a titled panel: the custom values need no heading of their own.
    if (customProp) ui[customProp] = { ...(ui[customProp] as UiSchema | undefined), 'ui:options': { heading: false } };
    const shown = new Set(fieldsKey.split(','));
    const hidden = Object.keys(schema.properties).filter((name) => !shown.has(name));
    return { ...ui, ...Object.fromEntries(hidden.map((name) => [name, { ...(ui[name] as object | undefined), 'ui:widget': 'hidden' }])) };
  }, [schema, fieldsKey, lockedKey, customProp, hasCustom, editing]);

  // By content, not identity: a parent may build the record anew on every render.
  const recordKey = `${schema.$id}:${JSON.stringify(formData ?? null)}`;
  const [record, setRecord] = useState(recordKey);
  const [data, setData] = useState<Data>(() => initialData(schema, formData));
  const [touched, setTouched] = useState(NO_FIELDS);
  if (record !== recordKey) {
    setRecord(recordKey);
    setData(initialData(schema, formData));
    setTouched(NO_FIELDS);
  }

  // Fields edited since the server's errors arrived: their server errors are out of date.
  const serverKey = JSON.stringify(serverErrors ?? []);
  const [server, setServer] = useState({ key: serverKey, edited: NO_FIELDS });
  if (server.key !== serverKey) setServer({ key: serverKey, edited: NO_FIELDS });

  const [pending, setPending] = useState(false);
  const busy = submitting || pending;

  const transformErrors = useMemo(() => createErrorTransformer(formSchema, intl), [formSchema, intl]);
  const validation = useMemo(
    () => formValidator.validateFormData(data, formSchema, undefined, transformErrors),
    [data, formSchema, formValidator, transformErrors],
  );
  // Custom values are checked by their definitions, and only while the form shows them.
  const customShown = Boolean(customProp && hasCustom && (baseUiSchema[customProp] as UiSchema | undefined)?.['ui:widget'] !== 'hidden');
  const problems = useMemo(() => (customShown ? customProblems(customFields, data) : NO_PROBLEMS), [customShown, customFields, data]);
  // Fields that mean something only for some values of another (a choice field's options): hidden otherwise, and
  // then their rules do not hold Save back (the server drops what does not apply).
  const conditional = useMemo(() => conditionalFields(baseUiSchema), [baseUiSchema]);
  const absent = useMemo(() => new Set(conditional.filter(([, when]) => !meets(when, data)).map(([name]) => name)), [conditional, data]);
  const blocking = useMemo(
    () => Object.keys(validation.errorSchema).filter((name) => name !== '__errors' && !absent.has(name)),
    [validation.errorSchema, absent],
  );
  const valid = blocking.length === 0 && !validation.errorSchema.__errors?.length && problems.size === 0;

  // Server errors are hidden while a save runs: the next answer replaces them.
  const { fieldErrors, formErrors } = useMemo(() => {
    const current = busy ? [] : (serverErrors ?? []);
    const shown = names.filter((name) => (baseUiSchema[name] as UiSchema | undefined)?.['ui:widget'] !== 'hidden');
    const fieldOf = (error: FieldError) => error.field.split('.')[0];
    // A custom value's error shows under its input; one of a field without an input (or of the object) above the form.
    const placed = (error: FieldError) =>
      shown.includes(fieldOf(error)) &&
      (fieldOf(error) !== customProp || (customShown && customFields.some((def) => `${CUSTOM_PREFIX}${def.key}` === trackedName(error.field))));
    return {
      fieldErrors: current.filter((e) => placed(e) && !server.edited.has(trackedName(e.field))),
      formErrors: current.filter((e) => !placed(e)),
    };
  }, [busy, serverErrors, names, baseUiSchema, server.edited, customProp, customShown, customFields]);

  const extraErrors = useMemo(
    () =>
      mergeErrorSchemas(
        mergeErrorSchemas(pickFieldErrors(validation.errorSchema, touched), serverErrorSchema(fieldErrors, intl)),
        // A custom value's problem shows once it was edited or left (all of them after an attempt to save).
        customErrorSchema(problems, intl, (name) => touched.has(name) || (customProp !== undefined && touched.has(customProp))),
      ),
    [validation.errorSchema, touched, fieldErrors, intl, problems, customProp],
  );

  const uiSchema = useMemo<UiSchema>(
    () => ({
      ...baseUiSchema,
      ...Object.fromEntries([...absent].map((name) => [name, { ...(baseUiSchema[name] as UiSchema | undefined), 'ui:widget': 'hidden' }])),
      'ui:submitButtonOptions': { norender: readOnly, props: { disabled: !valid || busy, loading: busy } },
    }),
    [baseUiSchema, absent, readOnly, valid, busy],
  );
  // Fields with an error, for the submit template to say why Save is disabled.
  const invalidFields = useMemo(() => [...blocking, ...problems.keys()], [blocking, problems]);
  const formContext = useMemo<BlueprintFormContext>(
    () => ({ options, onCancel, grantable, data, ownResellerId, lockedFields, invalidFields, customFields }),
    [options, onCancel, grantable, data, ownResellerId, lockedFields, invalidFields, customFields],
  );

  const handleChange = (event: IChangeEvent<Data>) => {
    const next = event.formData ?? {};
    const changed = [...names.filter((name) => name !== customProp && !deepEquals(data[name], next[name])), ...changedCustom(data, next)];
    setData(next);
    if (changed.length > 0) {
      setTouched((previous) => withFields(previous, changed));
      setServer((previous) => ({ ...previous, edited: withFields(previous.edited, changed) }));
    }
  };

  const handleBlur = (id: string) => {
    const name = propertyOfFieldId(id, names);
    // A custom value's input is `root_custom_<key>` (a key has no underscore).
    const custom = name !== undefined && name === customProp ? id.slice(`root_${name}_`.length) : undefined;
    if (name) setTouched((previous) => withFields(previous, [custom ? `${CUSTOM_PREFIX}${custom}` : name]));
  };

  const handleSubmit = async (event: IChangeEvent<Data>) => {
    if (busy || readOnly) return;
    if (!valid) {
      // A submit can come without the disabled button (e.g. `requestSubmit()`): show every error, go to the first.
      setTouched(new Set(names));
      const order = baseUiSchema['ui:order'] as string[] | undefined;
      const first = orderProperties(names, order).find((name) => blocking.includes(name) || (name === customProp && problems.size > 0));
      const firstCustom = [...problems.keys()][0]?.slice(CUSTOM_PREFIX.length);
      if (first) document.getElementById(first === customProp && !blocking.includes(first) ? `root_${first}_${firstCustom}` : `root_${first}`)?.focus();
      return;
    }
    // The answer to this save decides which server errors hold, even ones identical to the last.
    setServer((previous) => ({ ...previous, edited: NO_FIELDS }));
    setPending(true);
    try {
      const written = writableData(schema, event.formData ?? data, formData);
      if (customProp) {
        // Only the custom values that changed, so a value of a field the editor does not see is never touched.
        const changes = customShown ? customChanges(customFields, event.formData ?? data, formData) : undefined;
        if (changes) written[customProp] = changes;
        else delete written[customProp];
      }
      await onSubmit(written);
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      {formErrors.length > 0 && (
        <Callout intent={Intent.DANGER}>
          {formErrors.map((error, i) => (
            <div key={i}>{messageOr(intl, error.messageId, error.message)}</div>
          ))}
        </Callout>
      )}
      <Form<Data, typeof formSchema, BlueprintFormContext>
        schema={formSchema}
        uiSchema={uiSchema}
        formData={data}
        formContext={formContext}
        validator={formValidator}
        extraErrors={extraErrors}
        // The form validates itself (above) so the errors shown, Save's state and the submit agree; RJSF's
        // own pass would keep a second, older set of errors.
        noValidate
        noHtml5Validate
        showErrorList={false}
        readonly={readOnly}
        onChange={handleChange}
        onBlur={handleBlur}
        onSubmit={handleSubmit}
      />
    </>
  );
}

export default EntityForm;
