import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { hashForSchema, type RJSFSchema } from '@rjsf/utils';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import { validatorsModuleCode } from './validatorsPlugin';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'form-validators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The generated module, loaded as a file of its own (its imports pointed at this project's packages). */
async function load(code: string, name: string): Promise<ValidatorFunctions> {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(
    file,
    code.replace(/from "([^"]+)"/g, (_match, id: string) => `from ${JSON.stringify(pathToFileURL(require.resolve(id)).href)}`),
  );
  return ((await import(/* @vite-ignore */ pathToFileURL(file).href)) as { default: ValidatorFunctions }).default;
}

// `errorMessage` is ajv-errors' keyword, unknown to the JSON Schema type.
const event = {
  type: 'object',
  required: ['title'],
  properties: {
    title: { type: 'string', maxLength: 3, errorMessage: { maxLength: 'validation.tooLong' } },
    contact: { type: 'string', format: 'email' },
    day: { type: 'string', format: 'date' },
    kind: { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'integer' }] },
  },
} as RJSFSchema;

describe('validatorsModuleCode', () => {
  const code = validatorsModuleCode([event]);

  it('is an ES module that imports what ajv would require', () => {
    expect(code).not.toMatch(/\brequire\(|module\.exports|new Function/);
    expect(code).toContain('from "ajv/dist/runtime/ucs2length.js"');
    // `date` is a function of ajv-formats, found through `code.formats`; `email` is a regular expression, inlined.
    expect(code).toContain('from "ajv-formats/dist/formats.js"');
    expect(code).toMatch(/\.fullFormats\.date\b/);
  });

  it('keys each function by the hash RJSF looks up, sub-schemas of anyOf included', async () => {
    const fns = await load(code, 'event');
    expect(Object.keys(fns)).toContain(hashForSchema(event));
    expect(Object.keys(fns)).toContain(hashForSchema({ type: 'integer' }));
    const validate = fns[hashForSchema(event)];
    expect(validate({ title: 'abc', contact: 'ops@example.com', day: '2026-02-28', kind: 3 })).toBe(true);
    expect(validate({ title: 'abcd', contact: 'ops@', day: '2026-02-30', kind: 'b' })).toBe(false);
    expect(validate.errors?.map((e) => `${e.instancePath} ${e.keyword}`).sort()).toEqual([
      '/contact format',
      '/day format',
      '/kind anyOf',
      '/kind enum',
      '/kind type',
      '/title errorMessage',
    ]);
  });

  it('compiles a sub-schema shared by two forms once, and refuses two schemas under one $id', () => {
    const other: RJSFSchema = { type: 'object', properties: { kind: { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'integer' }] } } };
    expect(() => validatorsModuleCode([event, other])).not.toThrow();
    expect(() =>
      validatorsModuleCode([
        { $id: 'x', type: 'string' },
        { $id: 'x', type: 'number' },
      ]),
    ).toThrow(/share the key x/);
  });
});
