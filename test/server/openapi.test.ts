import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanDocument, documentedSchema, operationId } from '@server/http/openapi';
import { testApp } from './helpers';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('the OpenAPI document', () => {
  let ctx: Awaited<ReturnType<typeof testApp>>;
  let doc: Json;
  beforeAll(async () => {
    ctx = await testApp('pglite');
    doc = (await (await ctx.as('admin')).get('/portal/v3/api-docs')).json();
  });
  afterAll(async () => ctx?.close());

  it('names its server and gives every operation a summary, a tag, a unique id and an error answer', () => {
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const ids = new Set<string>();
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const method of METHODS.filter((m) => item[m])) {
        const op = item[method];
        expect(op.summary, `${method} ${path}`).toMatch(/\S/);
        expect(op.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
        expect(ids.has(op.operationId), op.operationId).toBe(false);
        ids.add(op.operationId);
        expect(
          Object.keys(op.responses).some((s) => s.startsWith('4')),
          `${method} ${path}`,
        ).toBe(true);
      }
    }
    expect(ids.size).toBeGreaterThan(150);
  });

  it('titles fields in words, not message ids', () => {
    const titles: string[] = [];
    JSON.stringify(doc, (key, value) => (key === 'title' && typeof value === 'string' && titles.push(value), value));
    expect(titles).toContain('MO call');
    expect(titles.filter((t) => /^[a-z]+(\.[a-zA-Z]+){2,}$/.test(t))).toEqual([]);
  });

  it('carries none of the validation-only keywords', () => {
    const text = JSON.stringify(doc.paths);
    expect(text).not.toContain('"errorMessage"');
    expect(text).not.toMatch(/"exclusiveM(in|ax)imum":-?\d/);
  });

  it('is cleaned without touching the validation schemas', () => {
    const schema = {
      type: 'object',
      properties: { errorMessage: { type: 'string' }, n: { type: 'number', exclusiveMinimum: 0, errorMessage: 'x' } },
      errorMessage: { required: 'y' },
    };
    const copy = structuredClone(schema);
    expect(documentedSchema(schema)).toEqual({
      type: 'object',
      properties: { errorMessage: { type: 'string' }, n: { type: 'number', minimum: 0, exclusiveMinimum: true } },
    });
    expect(schema).toEqual(copy);
    expect(cleanDocument({ paths: {} }, [{ url: '/' }]).servers).toEqual([{ url: '/' }]);
    expect(operationId('post', '/portal/allowed-lists/{id}/sync')).toBe('postAllowedListsByIdSync');
  });

  // Redocly's recommended rules, with the problems .redocly.lint-ignore.yaml names on purpose: no error, no warning.
  it('lints clean with Redocly (npm run lint:api)', () => {
    const run = spawnSync('npm', ['run', '--silent', 'lint:api'], { encoding: 'utf8' });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('0 errors, 0 warnings');
  }, 120_000);
});
