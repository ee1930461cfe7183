/** Applies dark mode, the reseller's accent colour and its form styles to the page. */
import { Classes } from '@blueprintjs/core';
import { useEffect } from 'react';
import { formStyleVariables } from '@shared/formStyles';
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

/** Dark text on a light accent, white on a dark one, whichever reads better (WCAG relative luminance). */
export function textOnAccent(hex: string): string {
  const full = hex.replace('#', '').replace(/^(.)(.)(.)$/, '$1$1$2$2$3$3');
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast against #1c2127 (luminance about 0.014) versus against white.
  return (luminance + 0.05) / 0.064 >= 1.05 / (luminance + 0.05) ? '#1c2127' : '#ffffff';
}

/**
 * Blueprint's dark class goes on the body, not on the app's root, because overlays, toasts and drawers are
 * portalled to the body and must turn dark too.
 */
export function useThemeOnBody() {
  const darkMode = useAppSelector(selectDarkMode);
  const reseller = useAppSelector(selectProfile)?.resellerInfo;
  const accent = accentColour(reseller?.accentColorHex);
  const styles = reseller?.formStyles;
  useEffect(() => {
    document.body.classList.toggle(Classes.DARK, darkMode);
  }, [darkMode]);
  useEffect(() => {
    document.documentElement.style.setProperty('--portal-accent', accent);
    document.documentElement.style.setProperty('--portal-accent-text', textOnAccent(accent));
  }, [accent]);
  // The reseller's form styles: variables on the root, and the class that makes the stylesheet read them.
  const variables = JSON.stringify(formStyleVariables(styles));
  useEffect(() => {
    const root = document.documentElement;
    const set = JSON.parse(variables) as Record<string, string>;
    for (const [name, value] of Object.entries(set)) root.style.setProperty(name, value);
    document.body.classList.toggle('portal-form-styles', Object.keys(set).length > 0);
    return () => {
      for (const name of Object.keys(set)) root.style.removeProperty(name);
      document.body.classList.remove('portal-form-styles');
    };
  }, [variables]);
}

export function ThemeSync() {
  useThemeOnBody();
  return null;
}
