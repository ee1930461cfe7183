import { useIntl } from 'react-intl';
import { useAppSelector } from '@web/app/hooks';
import { isLocale, isRightToLeft } from '@web/app/locales';
import { selectDarkMode } from '@web/app/preferencesSlice';
import { darkGridTheme, lightGridTheme } from './gridSetup';

/**
 * How every grid of the portal looks for this user: the dark or light theme and the reading direction. A grid
 * reads its direction once, when created, so `key` changes with it and a change of language recreates the grid.
 */
export function useGridLook() {
  const intl = useIntl();
  const darkMode = useAppSelector(selectDarkMode);
  const rtl = isLocale(intl.locale) && isRightToLeft(intl.locale);
  return { key: rtl ? 'rtl' : 'ltr', props: { enableRtl: rtl, theme: darkMode ? darkGridTheme : lightGridTheme } };
}
