/**
 * The join request ("request access") form: its body schema with ajv-errors message ids, shared by the
 * server's check and the web form, so both refuse the same input with the same message.
 */
import { isValidPhoneNumber } from 'libphonenumber-js';

/** The provider types offered in the form's select; any other text up to 30 characters is a custom type. */
export const JOIN_PROVIDER_TYPES = ['Mobile Operator', 'IoT provider', 'A2P provider', 'eSIM reseller', 'Service provider'] as const;

/** Names refuse digits, underscore and these symbols: ! ¡ ? ÷ ¿ / \ + = @ # $ % & * ( ) { } | ~ < > ; : [ ] */
export const NAME_PATTERN = '^[^0-9_!¡?÷¿/\\\\+=@#$%&*(){}|~<>;:[\\]]*$';

export const JOIN_COMMENT_MAX = 250;
export const JOIN_TYPE_MAX = 30;

/** What a join request says, as it is stored and listed for the administrator. */
export interface JoinRequestFields {
  firstName: string | null;
  lastName: string;
  email: string;
  company: string;
  /** International format, e.g. "+44 20 7946 0958". */
  phoneNumber: string;
  comment: string | null;
  /** One of JOIN_PROVIDER_TYPES or a custom type. */
  type: string;
}

export interface JoinRequestBody extends Omit<JoinRequestFields, 'firstName' | 'comment'> {
  firstName?: string | null;
  comment?: string | null;
  /** The ALTCHA payload the widget produced (base64 JSON of challenge and solution). */
  altcha: string;
}

/** A phone number in international format ("+" and country code), as libphonenumber-js judges it. */
export function isValidPhone(value: string): boolean {
  return value.trim().startsWith('+') && isValidPhoneNumber(value);
}

/** Custom ajv formats the schema uses: `new Ajv()` then `ajv.addFormat(name, fn)`, or RJSF's customFormats. */
export const joinFormats = { phone: isValidPhone };

const name = (max: number) => ({
  type: 'string',
  maxLength: max,
  pattern: NAME_PATTERN,
  errorMessage: { pattern: 'validation.character.notAllowed', maxLength: 'validation.name.tooLong' },
});

export const joinRequestSchema = {
  type: 'object',
  required: ['lastName', 'email', 'company', 'phoneNumber', 'type', 'altcha'],
  additionalProperties: false,
  properties: {
    firstName: { ...name(50), type: ['string', 'null'] },
    lastName: { ...name(50), minLength: 1, errorMessage: { ...name(50).errorMessage, minLength: 'validation.lastName.required' } },
    email: {
      type: 'string',
      minLength: 1,
      maxLength: 254,
      format: 'email',
      errorMessage: { minLength: 'validation.email.required', maxLength: 'validation.email.invalid', format: 'validation.email.invalid' },
    },
    company: { type: 'string', minLength: 1, maxLength: 100, errorMessage: { minLength: 'validation.company.required', maxLength: 'validation.max100' } },
    phoneNumber: {
      type: 'string',
      minLength: 1,
      maxLength: 40,
      format: 'phone',
      errorMessage: { minLength: 'validation.phone.required', maxLength: 'validation.phone.invalid', format: 'validation.phone.invalid' },
    },
    comment: { type: ['string', 'null'], maxLength: JOIN_COMMENT_MAX, errorMessage: { maxLength: 'validation.max250' } },
    type: { type: 'string', minLength: 1, maxLength: JOIN_TYPE_MAX, errorMessage: { minLength: 'validation.select.required', maxLength: 'validation.max30' } },
    altcha: {
      type: 'string',
      minLength: 1,
      maxLength: 4000,
      errorMessage: { minLength: 'validation.altcha.required', maxLength: 'validation.altcha.invalid' },
    },
  },
  errorMessage: {
    required: {
      lastName: 'validation.lastName.required',
      email: 'validation.email.required',
      company: 'validation.company.required',
      phoneNumber: 'validation.phone.required',
      type: 'validation.select.required',
      altcha: 'validation.altcha.required',
    },
    additionalProperties: 'validation.unknownField',
  },
} as const;

/** Trims every text field, so a name of spaces counts as empty on both sides. */
export function normaliseJoinRequest(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' && k !== 'altcha' ? v.trim() : v]));
}
