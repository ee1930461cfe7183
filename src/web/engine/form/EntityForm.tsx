import { useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { Callout, Intent } from '@blueprintjs/core';
import type { IChangeEvent } from '@rjsf/core';
import { deepEquals, orderProperties, type UiSchema } from '@rjsf/utils';
import type { PrivilegeItem } from '@shared/privileges';
import type { EntitySchema } from '@shared/schema';
import type { FieldError } from '@shared/wire';
import { Form } from './BlueprintForm';
import type { BlueprintFormContext, ReferenceOption } from './context';
import { formSchemaOf, initialData, propertyOfFieldId, uiSchemaOf, writableData } from './entitySchema';
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
}

const NO_FIELDS: ReadonlySet<string> = new Set();

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
}: EntityFormProps) {
  const intl = useIntl();
  const formSchema = formSchemaOf(schema, formData ? 'edit' : 'create');
  const formValidator = formValidatorOf<Data, BlueprintFormContext>(formSchema);
  const names = useMemo(() => Object.keys(schema.properties), [schema]);
  const fieldsKey = fields?.join(',');
  const lockedKey = lockedFields?.join(',') ?? '';
  const baseUiSchema = useMemo(() => {
    const ui = uiSchemaOf(schema);
    for (const name of lockedKey ? lockedKey.split(',') : [])
      ui[name] = { ...(ui[name] as object | undefined), 'ui:readonly': true, 'ui:help': 'form.field.protected' };
    if (fieldsKey === undefined) return ui;
    const shown = new Set(fieldsKey.split(','));
    const hidden = Object.keys(schema.properties).filter((name) => !shown.has(name));
    return { ...ui, ...Object.fromEntries(hidden.map((name) => [name, { ...(ui[name] as object | undefined), 'ui:widget': 'hidden' }])) };
  }, [schema, fieldsKey, lockedKey]);

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
  const valid = validation.errors.length === 0;

  // Server errors are hidden while a save runs: the next answer replaces them.
  const { fieldErrors, formErrors } = useMemo(() => {
    const current = busy ? [] : (serverErrors ?? []);
    const shown = names.filter((name) => (baseUiSchema[name] as UiSchema | undefined)?.['ui:widget'] !== 'hidden');
    const fieldOf = (error: FieldError) => error.field.split('.')[0];
    return {
      fieldErrors: current.filter((e) => shown.includes(fieldOf(e)) && !server.edited.has(fieldOf(e))),
      // The body as a whole, or a field the form does not show.
      formErrors: current.filter((e) => !shown.includes(fieldOf(e))),
    };
  }, [busy, serverErrors, names, baseUiSchema, server.edited]);

  const extraErrors = useMemo(
    () => mergeErrorSchemas(pickFieldErrors(validation.errorSchema, touched), serverErrorSchema(fieldErrors, intl)),
    [validation.errorSchema, touched, fieldErrors, intl],
  );

  const uiSchema = useMemo<UiSchema>(
    () => ({ ...baseUiSchema, 'ui:submitButtonOptions': { norender: readOnly, props: { disabled: !valid || busy, loading: busy } } }),
    [baseUiSchema, readOnly, valid, busy],
  );
  // Fields with an error, for the submit template to say why Save is disabled.
  const invalidFields = useMemo(() => Object.keys(validation.errorSchema).filter((name) => name !== '__errors'), [validation.errorSchema]);
  const formContext = useMemo<BlueprintFormContext>(
    () => ({ options, onCancel, grantable, data, ownResellerId, lockedFields, invalidFields }),
    [options, onCancel, grantable, data, ownResellerId, lockedFields, invalidFields],
  );

  const handleChange = (event: IChangeEvent<Data>) => {
    const next = event.formData ?? {};
    const changed = names.filter((name) => !deepEquals(data[name], next[name]));
    setData(next);
    if (changed.length > 0) {
      setTouched((previous) => withFields(previous, changed));
      setServer((previous) => ({ ...previous, edited: withFields(previous.edited, changed) }));
    }
  };

  const handleBlur = (id: string) => {
    const name = propertyOfFieldId(id, names);
    if (name) setTouched((previous) => withFields(previous, [name]));
  };

  const handleSubmit = async (event: IChangeEvent<Data>) => {
    if (busy || readOnly) return;
    if (!valid) {
      // A submit can come without the disabled button (e.g. `requestSubmit()`): show every error, go to the first.
      setTouched(new Set(names));
      const order = baseUiSchema['ui:order'] as string[] | undefined;
      const first = orderProperties(names, order).find((name) => validation.errorSchema[name]);
      if (first) document.getElementById(`root_${first}`)?.focus();
      return;
    }
    // The answer to this save decides which server errors hold, even ones identical to the last.
    setServer((previous) => ({ ...previous, edited: NO_FIELDS }));
    setPending(true);
    try {
      await onSubmit(writableData(schema, event.formData ?? data, formData));
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
