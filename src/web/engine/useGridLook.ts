import { useMemo } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { useAppSelector } from '@web/core/hooks';
import { isLocale, isRightToLeft } from '@web/core/locales';
import { selectDarkMode } from '@web/core/preferencesSlice';
import { darkGridTheme, lightGridTheme } from './gridSetup';

/**
 * AG Grid's own texts that the portal's grids can show or announce with the modules gridSetup.ts registers: the
 * empty and loading overlays, row selection (checkboxes and what a screen reader hears of them), sorting, cell
 * editing and tooltips. Each reads `grid.<key>` from the catalogues; a key AG Grid asks for that is not listed
 * keeps its English default.
 */
export const GRID_TEXT_KEYS = [
  'noRowsToShow',
  'loadingOoo',
  'ariaChecked',
  'ariaUnchecked',
  'ariaIndeterminate',
  'ariaRowSelectAll',
  'ariaHeaderSelection',
  'ariaRowToggleSelection',
  'ariaRowSelectionDisabled',
  'ariaRowSelect',
  'ariaRowDeselect',
  'ariaSortableColumn',
  'ariaInputEditor',
  'ariaValidationErrorPrefix',
  'invalidNumber',
  'invalidDate',
  'ariaToggleCellValue',
  'ariaLabelTooltip',
] as const;

export function gridLocaleText(intl: IntlShape): Record<string, string> {
  return Object.fromEntries(GRID_TEXT_KEYS.map((key) => [key, intl.formatMessage({ id: `grid.${key}` })]));
}

/**
 * How every grid of the portal looks for this user: the dark or light theme, the reading direction and AG Grid's
 * own texts in the user's language. A grid reads its direction and texts once, when created, so `key` changes with
 * the language and a change of language recreates the grid.
 */
export function useGridLook() {
  const intl = useIntl();
  const darkMode = useAppSelector(selectDarkMode);
  const rtl = isLocale(intl.locale) && isRightToLeft(intl.locale);
  const localeText = useMemo(() => gridLocaleText(intl), [intl]);
  return { key: intl.locale, props: { enableRtl: rtl, localeText, theme: darkMode ? darkGridTheme : lightGridTheme } };
}
