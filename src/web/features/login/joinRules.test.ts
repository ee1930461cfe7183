import Ajv from 'ajv';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { joinFormats, joinRequestSchema, normaliseJoinRequest } from '@shared/join';
import { toFieldErrors } from '@shared/validation';
import { joinBody, joinFieldProblem, joinProblems, type JoinField, type JoinValues } from './joinRules';

/** The server's check of a join request, compiled as the server compiles it. */
function serverCheck() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  ajvErrors(ajv);
  for (const [name, validate] of Object.entries(joinFormats)) ajv.addFormat(name, { type: 'string', validate });
  const check = ajv.compile(joinRequestSchema);
  return (body: unknown) => (check(normaliseJoinRequest(body)) ? [] : toFieldErrors(check.errors as never, (id) => id));
}

const VALID: JoinValues = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@engines.example',
  company: 'Analytical Engines',
  phoneNumber: '+44 20 7946 0958',
  type: 'IoT provider',
  comment: '',
};

/** Values each field may take, valid and not: the browser must judge each one as the server does. */
const SAMPLES: Record<JoinField, string[]> = {
  firstName: ['', 'Zoë', 'Jean-Luc', "O'Brien", 'Ada1', 'ada_', 'A!', 'Ada?', 'x'.repeat(50), 'x'.repeat(51), 'René ¿', '[Ada]', 'Ada\\'],
  lastName: ['', '   ', 'Lovelace', 'Love1ace', 'Ada@home', 'Ñúñez', 'a;b', 'y'.repeat(51)],
  email: ['', 'ada', 'ada@', 'ada@engines', 'ada@engines.example', 'a.b+c@x.co', 'a b@x.co', `${'m'.repeat(250)}@x.co`],
  company: ['', 'ACME', 'c'.repeat(100), 'c'.repeat(101)],
  phoneNumber: ['', '+44 20 7946 0958', '020 7946 0958', '+1 202 555 0101', '+44 12', '+972 3 123 4567', 'phone', '+'.padEnd(41, '1')],
  type: ['', 'Mobile Operator', 'Satellite reseller', 't'.repeat(30), 't'.repeat(31)],
  comment: ['', 'Hello', 'c'.repeat(250), 'c'.repeat(251), '😀'.repeat(250)],
};

describe('join form rules', () => {
  const check = serverCheck();

  it.each(Object.entries(SAMPLES).flatMap(([field, values]) => values.map((value) => [field as JoinField, value] as const)))(
    '%s = %j is judged as the server judges it',
    (field, value) => {
      const values = { ...VALID, [field]: value };
      const server = check(joinBody(values, 'solution')).find((e) => e.field === field);
      expect(joinFieldProblem(field, value)).toBe(server?.messageId);
    },
  );

  it('passes a complete request and uses the schema’s message ids', () => {
    expect(joinProblems(VALID)).toEqual({});
    expect(check(joinBody(VALID, 'solution'))).toEqual([]);
    expect(joinProblems({ ...VALID, lastName: '', email: 'x', phoneNumber: '+44 12', type: '' })).toEqual({
      lastName: 'validation.lastName.required',
      email: 'validation.email.invalid',
      phoneNumber: 'validation.phone.invalid',
      type: 'validation.select.required',
    });
  });

  it('sends trimmed text and leaves out empty optional fields', () => {
    expect(joinBody({ ...VALID, firstName: '  ', lastName: ' Lovelace ', comment: '' }, 'solution')).toEqual({
      lastName: 'Lovelace',
      email: VALID.email,
      company: VALID.company,
      phoneNumber: VALID.phoneNumber,
      type: VALID.type,
      altcha: 'solution',
    });
  });
});
