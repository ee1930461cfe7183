// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { searchFilters } from '@shared/schema';
import { LOCALES } from '@web/core/locales';
import { ENTITY_SCHEMAS, entityName, findSchema } from '@web/core/schemas';
import { renderWithProviders } from '@web/test/renderWithProviders';
import { SearchBar, filterLabelId } from './SearchBar';

const catalogue = (locale: string): Record<string, string> => JSON.parse(readFileSync(join(process.cwd(), 'i18n', `${locale}.json`), 'utf8'));

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

describe('the search bar', () => {
  afterEach(cleanup);

  // The list draws a new address as a transition: a user who picks a filter and types and presses Enter at once can
  // search before the list has passed the new filter back down. The search must be by the filter just picked.
  it('searches by the filter just picked before the list has passed it back', async () => {
    const schema = findSchema('subscriber')!;
    const onSearch = vi.fn();
    const { user } = renderWithProviders(<SearchBar schema={schema} filters={searchFilters(schema, true)} searchKey="" searchBy="iccid" onSearch={onSearch} />);
    await user.selectOptions(screen.getByTestId('list-search-by'), 'resellerName');
    expect(onSearch).toHaveBeenLastCalledWith('', 'resellerName');
    await user.type(screen.getByTestId('list-search'), 'Northwind{Enter}');
    expect(onSearch).toHaveBeenLastCalledWith('Northwind', 'resellerName');
  });

  it('follows a filter and text the address brings (the back button)', async () => {
    const schema = findSchema('subscriber')!;
    const onSearch = vi.fn();
    const props = { schema, filters: searchFilters(schema, true), onSearch };
    const { rerender, user } = renderWithProviders(<SearchBar {...props} searchKey="" searchBy="iccid" />);
    await user.selectOptions(screen.getByTestId('list-search-by'), 'resellerName');
    rerender(<SearchBar {...props} searchKey="" searchBy="resellerName" />);
    rerender(<SearchBar {...props} searchKey="8944" searchBy="iccid" />);
    expect((screen.getByTestId('list-search-by') as HTMLSelectElement).value).toBe('iccid');
    expect((screen.getByTestId('list-search') as HTMLInputElement).value).toBe('8944');
  });
});
