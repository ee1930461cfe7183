/** Applies dark mode and the reseller's accent colour to the page. */
import { Classes } from '@blueprintjs/core';
import { useEffect } from 'react';
import { useAppSelector } from './hooks';
import { selectProfile } from './authSlice';
import { selectDarkMode } from './preferencesSlice';

/** The default accent of the light theme: a gold tone. */
export const DEFAULT_ACCENT = '#c99a2e';

const HEX_COLOUR = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

export function accentColour(hex: string | null | undefined): string {
  if (!hex || !HEX_COLOUR.test(hex)) return DEFAULT_ACCENT;
  return hex.startsWith('#') ? hex : `#${hex}`;
}

/**
 * Blueprint's dark class goes on the body, not on the app's root, because overlays, toasts and drawers are
 * portalled to the body and must turn dark too.
 */
export function useThemeOnBody() {
  const darkMode = useAppSelector(selectDarkMode);
  const accent = accentColour(useAppSelector(selectProfile)?.resellerInfo.accentColorHex);
  useEffect(() => {
    document.body.classList.toggle(Classes.DARK, darkMode);
  }, [darkMode]);
  useEffect(() => {
    document.documentElement.style.setProperty('--portal-accent', accent);
  }, [accent]);
}

export function ThemeSync() {
  useThemeOnBody();
  return null;
}
