import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { searchFilters } from '@shared/schema';
import { LOCALES } from '@web/core/locales';
import { ENTITY_SCHEMAS, entityName } from '@web/core/schemas';
import { filterLabelId } from './SearchBar';

const catalogue = (locale: string): Record<string, string> => JSON.parse(readFileSync(new URL(`../../../i18n/${locale}.json`, import.meta.url), 'utf8'));

describe('search filters', () => {
  // Two filters named alike (a reseller's id and its name both as "Reseller") leave the user guessing which is which.
  it.each([...LOCALES])('%s: every list names each of its filters differently, for an administrator too', (locale) => {
    const messages = { ...catalogue('en'), ...catalogue(locale) };
    const repeated = ENTITY_SCHEMAS.flatMap((schema) => {
      const labels = searchFilters(schema, true).map((f) => messages[filterLabelId(schema, f)] ?? f.by);
      return labels.filter((label, i) => labels.indexOf(label) !== i).map((label) => `${entityName(schema)}: ${label}`);
    });
    expect(repeated).toEqual([]);
  });
});
