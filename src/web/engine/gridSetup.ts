/**
 * AG Grid modules and themes. Only the modules the entity grid uses are registered, which keeps the lazy grid
 * chunk small; the validation module (development only) names any module a new option would need.
 */
import {
  CellStyleModule,
  ClientSideRowModelModule,
  ColumnApiModule,
  LocaleModule,
  ModuleRegistry,
  RowApiModule,
  RowSelectionModule,
  RowStyleModule,
  ValidationModule,
  colorSchemeDark,
  colorSchemeLight,
  themeQuartz,
} from 'ag-grid-community';

// Client-side rows (one server page at a time), column state (to read the sort), cell classes (right-aligned
// amounts), row classes (the pointer), row selection with the row calls that tick rows (lists with bulk actions),
// and the grid's own texts in the user's language (useGridLook's localeText; without this module AG Grid ignores it).
// No column menu, filter or pinning module is registered: the lists search and sort on the server.
ModuleRegistry.registerModules([ClientSideRowModelModule, ColumnApiModule, CellStyleModule, RowStyleModule, RowSelectionModule, RowApiModule, LocaleModule]);
if (import.meta.env.DEV) ModuleRegistry.registerModules([ValidationModule]);

const accent = { accentColor: 'var(--portal-accent, #c99a2e)' };
export const lightGridTheme = themeQuartz.withPart(colorSchemeLight).withParams(accent);
export const darkGridTheme = themeQuartz.withPart(colorSchemeDark).withParams(accent);
