/**
 * The join form's field checks, read from the very schema the server validates with (`joinRequestSchema`):
 * its lengths, patterns, formats and message ids. The browser cannot compile the schema with ajv (the
 * Content-Security-Policy forbids `new Function`), so this walks the few keywords the schema uses instead.
 * The e-mail format is ajv-formats' own expression and the phone format the shared libphonenumber-js check,
 * so a value passes here exactly when it passes on the server.
 */
import { fullFormats } from 'ajv-formats/dist/formats';
import { joinFormats, joinRequestSchema, type JoinRequestBody } from '@shared/join';

/** The fields a person fills in; `altcha` comes from the robot check. */
export type JoinField = Exclude<keyof JoinRequestBody, 'altcha'>;

export type JoinValues = Record<JoinField, string>;

export const JOIN_FIELDS: readonly JoinField[] = ['firstName', 'lastName', 'email', 'company', 'phoneNumber', 'type', 'comment'];

interface StringRule {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  errorMessage: Partial<Record<'minLength' | 'maxLength' | 'pattern' | 'format', string>>;
}

const properties = joinRequestSchema.properties as unknown as Record<JoinField, StringRule>;
const required: readonly string[] = joinRequestSchema.required;
const requiredMessages: Record<string, string> = joinRequestSchema.errorMessage.required;

/** ajv's `format: email` (ajv-formats, full mode) is a regular expression. */
const emailFormat = fullFormats.email as RegExp;

const formats: Record<string, (value: string) => boolean> = {
  email: (value) => emailFormat.test(value),
  ...joinFormats,
};

/** ajv compiles `pattern` with the `u` flag and measures lengths in code points, so this does the same. */
const patterns = new Map<string, RegExp>();
function patternOf(source: string): RegExp {
  let re = patterns.get(source);
  if (!re) {
    re = new RegExp(source, 'u');
    patterns.set(source, re);
  }
  return re;
}

const length = (value: string) => [...value].length;

export function isRequired(field: JoinField): boolean {
  return required.includes(field);
}

/** The message id of what is wrong with one field's value (trimmed, as the server trims it), or undefined. */
export function joinFieldProblem(field: JoinField, raw: string): string | undefined {
  const rule = properties[field];
  const value = raw.trim();
  if (value === '') return isRequired(field) ? requiredMessages[field] : undefined;
  if (rule.minLength !== undefined && length(value) < rule.minLength) return rule.errorMessage.minLength;
  if (rule.maxLength !== undefined && length(value) > rule.maxLength) return rule.errorMessage.maxLength;
  if (rule.pattern !== undefined && !patternOf(rule.pattern).test(value)) return rule.errorMessage.pattern;
  const format = rule.format === undefined ? undefined : formats[rule.format];
  if (format && !format(value)) return rule.errorMessage.format;
  return undefined;
}

/** Every field's problem; an empty object when the form may be sent. */
export function joinProblems(values: JoinValues): Partial<Record<JoinField, string>> {
  const problems: Partial<Record<JoinField, string>> = {};
  for (const field of JOIN_FIELDS) {
    const problem = joinFieldProblem(field, values[field]);
    if (problem) problems[field] = problem;
  }
  return problems;
}

/** The most characters a field takes, from the schema (the comment's counter and the inputs' maxLength). */
export function joinMaxLength(field: JoinField): number | undefined {
  return properties[field].maxLength;
}

/** The request body: trimmed text, optional fields left out when empty. */
export function joinBody(values: JoinValues, altcha: string): JoinRequestBody {
  const text = (field: JoinField) => values[field].trim();
  return {
    ...(text('firstName') ? { firstName: text('firstName') } : {}),
    lastName: text('lastName'),
    email: text('email'),
    company: text('company'),
    phoneNumber: text('phoneNumber'),
    ...(text('comment') ? { comment: text('comment') } : {}),
    type: text('type'),
    altcha,
  };
}
