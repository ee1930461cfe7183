import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { EntitySchema } from './schema';
import { exampleBody, sampleOfPattern } from './schemaExample';

const dir = fileURLToPath(new URL('../../schemas/', import.meta.url));
const schemas = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(`${dir}${f}`, 'utf8')) as EntitySchema);

describe('examples made from a schema', () => {
  it.each([
    ['^\\d{5,6}$', '11111'],
    ['^[A-Z]{2}$', 'AA'],
    ['^(\\+)?[0-9]{8,15}$', '00000000'],
    ['^[a-z0-9._-]+@x$', 'a@x'],
    ['^(?:ab|cd)?Z$', 'Z'],
  ])('samples %s', (pattern, sample) => {
    expect(sampleOfPattern(pattern)).toBe(sample);
    expect(new RegExp(pattern).test(sample)).toBe(true);
  });

  it.each(schemas.map((s) => [s.$id, s] as const))('%s: the example passes the schema (references aside)', (_id, schema) => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const refs = Object.entries(schema.properties)
      .filter(([, p]) => p['x-reference'])
      .map(([k]) => k);
    const body = exampleBody(schema, {
      seed: '7',
      optional: true,
      references: Object.fromEntries(refs.map((k) => [k, schema.properties[k].type === 'array' ? [1] : 1])),
    });
    const props = Object.fromEntries(
      Object.entries(schema.properties).map(([k, p]) => [
        k,
        Object.fromEntries(Object.entries(p).filter(([x]) => !x.startsWith('x-') && x !== 'errorMessage' && x !== 'readOnly')),
      ]),
    );
    const validate = ajv.compile({ type: 'object', properties: props, required: (schema.required ?? []).filter((k) => !schema.properties[k].readOnly) });
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });
});
