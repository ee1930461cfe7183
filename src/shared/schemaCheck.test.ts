import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatProblems, schemaProblems } from './schemaCheck';

const dir = fileURLToPath(new URL('../../schemas/', import.meta.url));
const files = [
  ...readdirSync(dir).filter((f) => f.endsWith('.json')),
  ...readdirSync(`${dir}children`)
    .filter((f) => f.endsWith('.json'))
    .map((f) => `children/${f}`),
];
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests below break schemas on purpose, at any depth
const read = (file: string) => JSON.parse(readFileSync(`${dir}${file}`, 'utf8')) as Record<string, any>;
const entities = new Set(files.map((f) => read(f)['x-entity'].name as string));

describe('entity schemas against the meta-schema', () => {
  it.each(files)('%s is valid', (file) => {
    expect(formatProblems(schemaProblems(`schemas/${file}`, read(file), entities))).toBe('');
  });

  it('names the file and the JSON pointer of a mistake', () => {
    const broken = read('sponsor.json');
    broken.properties.name.maxLenght = 50;
    broken['x-columns'][1].field = 'nmae';
    broken['x-entity'].scope = 'tenant';
    broken['x-api'].get = 'FETCH /portal/sponsors/{id}';
    const text = formatProblems(schemaProblems('schemas/sponsor.json', broken, entities));
    expect(text).toContain('schemas/sponsor.json#/properties/name: unknown keyword "maxLenght"');
    expect(text).toContain('schemas/sponsor.json#/x-entity/scope');
    expect(text).toContain('schemas/sponsor.json#/x-api/get');
  });

  it('finds a column, a sort or a reference naming nothing', () => {
    const broken = read('account.json');
    broken['x-columns'][0].field = 'nmae';
    broken['x-list'].defaultSort.sortBy = 'nope';
    broken.properties.resellerId['x-reference'] = 'resseler';
    broken.properties.pricingPlanId['x-reference'] = 'pricingPlann';
    const problems = schemaProblems('schemas/account.json', broken, entities).map((p) => p.pointer);
    expect(problems).toEqual(expect.arrayContaining(['/x-columns/0/field', '/x-list/defaultSort/sortBy', '/properties/pricingPlanId/x-reference']));
  });
});

describe('the worked example of docs/adding-an-entity.md', () => {
  it('passes the meta-schema', () => {
    const md = readFileSync(fileURLToPath(new URL('../../docs/adding-an-entity.md', import.meta.url)), 'utf8');
    const json = /```json\n([\s\S]*?)```/.exec(md)?.[1];
    expect(json).toBeDefined();
    expect(formatProblems(schemaProblems('docs/adding-an-entity.md', JSON.parse(json!), entities))).toBe('');
  });
});
