// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react';
import { AgGridReact } from 'ag-grid-react';
import { afterEach, describe, expect, it } from 'vitest';
import { languageChosen } from '@web/core/preferencesSlice';
import type { Locale } from '@web/core/locales';
import { renderWithProviders } from '@web/test/renderWithProviders';
import de from '../../../i18n/de.json';
import { GRID_TEXT_KEYS, useGridLook } from './useGridLook';
import './gridSetup';

afterEach(() => cleanup());

/** A grid as the portal's grids are set up, with no rows: AG Grid shows its own "no rows" overlay. */
function EmptyGrid() {
  const look = useGridLook();
  return (
    <div style={{ height: 200 }} data-testid="grid">
      <AgGridReact<{ name: string }> key={look.key} {...look.props} rowData={[]} columnDefs={[{ field: 'name' }]} />
    </div>
  );
}

/** The empty grid, in English first and then in `locale`, as when the user picks a language. */
async function renderIn(locale: Locale) {
  const { store } = renderWithProviders(<EmptyGrid />);
  expect(await screen.findByText('No rows to show')).toBeTruthy();
  act(() => {
    store.dispatch(languageChosen(locale));
  });
}

describe('grid look', () => {
  it('gives AG Grid its texts in the user’s language', async () => {
    await renderIn('de');
    expect(await screen.findByText('Keine Zeilen zum Anzeigen')).toBeTruthy();
    expect(screen.queryByText('No Rows To Show')).toBeNull();
  });

  it('has a message for every grid text in the catalogues', () => {
    const messages: Record<string, string> = de;
    expect(GRID_TEXT_KEYS.filter((key) => !messages[`grid.${key}`])).toEqual([]);
  });

  it('lays the grid out right to left under Hebrew', async () => {
    await renderIn('he');
    expect(await screen.findByText('אין שורות להצגה')).toBeTruthy();
    expect(screen.getByTestId('grid').querySelector('.ag-rtl')).toBeTruthy();
  });
});
