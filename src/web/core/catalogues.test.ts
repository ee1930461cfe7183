import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { schemaMessages, type EntitySchema } from '@shared/schema';
import { catalogueReport, describeReport } from '../../../scripts/lib/catalogues';
import { LOCALES } from './locales';

const root = fileURLToPath(new URL('../../../', import.meta.url));

const catalogue = (locale: string): Record<string, string> => JSON.parse(readFileSync(`${root}i18n/${locale}.json`, 'utf8'));

/** The names of a message's arguments and tags, sorted: a translation must keep them all. */
function argumentsOf(elements: MessageFormatElement[]): string[] {
  return elements
    .flatMap((e): string[] => {
      if (e.type === TYPE.literal || e.type === TYPE.pound) return [];
      if (e.type === TYPE.tag) return [`<${e.value}>`, ...argumentsOf(e.children)];
      if (e.type === TYPE.select || e.type === TYPE.plural) {
        return [e.value, ...Object.values(e.options).flatMap((o) => argumentsOf(o.value))];
      }
      return [e.value];
    })
    .filter((v, i, all) => all.indexOf(v) === i)
    .sort();
}

/** Message ids written literally in the web app's code, as @formatjs/cli extracts them. */
function idsInCode(): string[] {
  const bin = `${root}node_modules/@formatjs/cli/bin/formatjs`;
  const out = execFileSync(process.execPath, [bin, 'extract', 'src/web/**/*.{ts,tsx}', '--ignore', '**/*.test.*'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return Object.keys(JSON.parse(out) as Record<string, unknown>);
}

/** Message ids the entity schemas name: titles, and every string value under a key ending in "message". */
function idsInSchemas(): string[] {
  const ids: string[] = [];
  const walk = (value: unknown, key: string) => {
    if (typeof value === 'string') {
      if (/^(title|.*[mM]essage)$/.test(key)) ids.push(value);
    } else if (Array.isArray(value)) value.forEach((v) => walk(v, key));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  for (const file of readdirSync(`${root}schemas`).filter((f) => f.endsWith('.json'))) {
    walk(JSON.parse(readFileSync(`${root}schemas/${file}`, 'utf8')), '');
  }
  return ids;
}

/** The English labels the entity schemas carry (x-entity.labels, x-label), by message id. */
const labels = schemaMessages(
  readdirSync(`${root}schemas`)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(`${root}schemas/${f}`, 'utf8')) as EntitySchema),
);

describe('message catalogues', () => {
  // The English source: the catalogue over the schemas' labels.
  const en = { ...labels, ...catalogue('en') };
  const others = LOCALES.filter((l) => l !== 'en');
  const report = catalogueReport(root);

  it.each(others)('%s has every message of the English catalogue, and only those, a schema label aside until translated', (locale) => {
    expect(report.missing[locale]).toEqual([]);
    expect(report.unknown[locale]).toEqual([]);
  });

  it('lists the schema labels still to translate without failing for them', () => {
    const { text, failed } = describeReport(report);
    console.log(text);
    expect(failed).toBe(false);
    const seeded = { ...report, untranslated: { ...report.untranslated, ru: ['entity.x.single'] }, missing: { ...report.missing, de: ['menu.x'] } };
    expect(describeReport(seeded)).toMatchObject({ failed: true });
    expect(describeReport(seeded).text).toContain('ru: 1 to translate (shown in English meanwhile): entity.x.single');
    expect(describeReport(seeded).text).toContain('de: missing from the catalogue: menu.x');
  });

  it('keeps the English catalogue and the schema labels it repeats in step', () => {
    expect(report.conflicting).toEqual([]);
    const seeded = { ...report, conflicting: ['entity.x.single'] };
    expect(describeReport(seeded)).toMatchObject({ failed: true });
    expect(describeReport(seeded).text).toContain('en: the catalogue and the schema label differ: entity.x.single');
  });

  it.each([...LOCALES])('%s: every message parses as ICU and keeps the English arguments and tags', (locale) => {
    const messages = locale === 'en' ? en : catalogue(locale);
    const broken: string[] = [];
    for (const [key, text] of Object.entries(messages)) {
      try {
        const args = argumentsOf(parse(text));
        if (key in en && JSON.stringify(args) !== JSON.stringify(argumentsOf(parse(en[key])))) broken.push(`${key}: arguments differ`);
      } catch (error) {
        broken.push(`${key}: ${(error as Error).message}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('has every message id the code and the schemas use', () => {
    const used = [...idsInCode(), ...idsInSchemas()];
    expect(used.length).toBeGreaterThan(50);
    expect([...new Set(used)].filter((id) => !(id in en))).toEqual([]);
  });
});
