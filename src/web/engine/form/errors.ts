/**
 * Turns validation results into translated, per-field messages. ajv-errors gives a message id for every keyword
 * a schema names in `errorMessage`; other keywords get generic ids here. A property's `errorMessage.required`
 * cannot fire where it is written (ajv reports `required` on the parent object), so it is applied here, on
 * the missing field itself.
 */
import type { IntlShape } from 'react-intl';
import { mergeObjects, toErrorSchema, toPath } from '@rjsf/utils';
import type { ErrorSchema, ErrorTransformer, RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import type { FieldError } from '@shared/wire';
import { messageOr, type MessageValues } from '@web/core/messages';
import { translateText } from './messages';

/** Message ids of keywords a schema gives no `errorMessage` for. */
const GENERIC_MESSAGES: Record<string, string> = {
  required: 'validation.required',
  minLength: 'validation.minLength',
  maxLength: 'validation.maxLength',
  minimum: 'validation.minimum',
  maximum: 'validation.maximum',
};
const FALLBACK_MESSAGE = 'validation.invalid';

interface FieldMessage {
  path: string[];
  id: string;
  values?: MessageValues;
}

interface AjvErrorLike {
  keyword: string;
  params?: { missingProperty?: string };
}

function subSchema(schema: RJSFSchema, path: string[]): RJSFSchema | undefined {
  let node: RJSFSchema | undefined = schema;
  for (const part of path) {
    const next: unknown = node?.properties?.[part];
    node = typeof next === 'object' && next !== null ? (next as RJSFSchema) : undefined;
  }
  return node;
}

function customMessage(schema: RJSFSchema | undefined, keyword: string): string | undefined {
  const messages: unknown = schema?.errorMessage;
  if (typeof messages === 'string') return messages;
  if (typeof messages === 'object' && messages !== null) {
    const id = (messages as Record<string, unknown>)[keyword];
    if (typeof id === 'string') return id;
  }
  return undefined;
}

function fieldMessages(error: RJSFValidationError, schema: RJSFSchema): FieldMessage[] {
  const path = toPath(error.property ?? '');
  if (error.name === 'errorMessage') {
    // ajv-errors reports a parent's `required` message on the parent: move it to each missing field.
    const originals = ((error.params as { errors?: AjvErrorLike[] })?.errors ?? []) as AjvErrorLike[];
    const missing = originals.flatMap((o) => (o.keyword === 'required' && o.params?.missingProperty ? [o.params.missingProperty] : []));
    if (missing.length > 0 && missing.length === originals.length) {
      return missing.map((name) => ({ path: [...path, name], id: error.message ?? FALLBACK_MESSAGE }));
    }
    return [{ path, id: error.message ?? FALLBACK_MESSAGE }];
  }
  if (error.name === 'required') {
    // RJSF has already appended the missing property to the path.
    return [{ path, id: customMessage(subSchema(schema, path), 'required') ?? GENERIC_MESSAGES.required }];
  }
  const limit = (error.params as { limit?: number } | undefined)?.limit;
  const id = (error.name && GENERIC_MESSAGES[error.name]) || FALLBACK_MESSAGE;
  return [{ path, id, values: limit === undefined ? undefined : { limit } }];
}

/** An RJSF `transformErrors` that puts every message on its field, translated, once. */
export function createErrorTransformer(schema: RJSFSchema, intl: IntlShape): ErrorTransformer {
  return (errors) => {
    const seen = new Set<string>();
    const result: RJSFValidationError[] = [];
    for (const error of errors) {
      for (const { path, id, values } of fieldMessages(error, schema)) {
        const property = path.length > 0 ? `.${path.join('.')}` : '';
        const message = translateText(intl, id, values);
        const key = `${property}\n${message}`;
        if (seen.has(key)) continue; // e.g. `format` and `maxLength` sharing one message
        seen.add(key);
        const titleId = subSchema(schema, path)?.title;
        const title = titleId ? translateText(intl, titleId) : '';
        result.push({ ...error, property, message, title, stack: title ? `${title}: ${message}` : message });
      }
    }
    return result;
  };
}

/** The server's field errors as an RJSF error schema, in the user's language (its English text as fallback). */
export function serverErrorSchema(errors: readonly FieldError[], intl: IntlShape): ErrorSchema {
  const located = errors
    .filter((e) => e.field)
    .map((e) => ({
      property: `.${e.field}`,
      message: messageOr(intl, e.messageId, e.message),
      stack: e.message,
    }));
  return toErrorSchema(located);
}

/** Keeps the errors of the named top-level fields. */
export function pickFieldErrors(errorSchema: ErrorSchema, fields: ReadonlySet<string>): ErrorSchema {
  return Object.fromEntries(Object.entries(errorSchema).filter(([name]) => fields.has(name))) as ErrorSchema;
}

export function mergeErrorSchemas(a: ErrorSchema, b: ErrorSchema): ErrorSchema {
  return mergeObjects(a, b, true) as ErrorSchema;
}
