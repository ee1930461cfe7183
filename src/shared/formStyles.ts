/**
 * A reseller's form styles: colours, a font and a corner radius its users' screens take, as CSS variables the
 * shell sets. The server checks them against these rules; the web applies them with `formStyleVariables`.
 */

/** Fonts a reseller may choose: installed almost everywhere, with generic fallbacks (no web font is loaded). */
export const FORM_FONTS = {
  system: '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  arial: 'Arial, "Helvetica Neue", Helvetica, sans-serif',
  verdana: 'Verdana, Geneva, Tahoma, sans-serif',
  tahoma: 'Tahoma, Verdana, Segoe, sans-serif',
  trebuchet: '"Trebuchet MS", "Lucida Grande", sans-serif',
  georgia: 'Georgia, "Times New Roman", Times, serif',
  courier: '"Courier New", Courier, monospace',
} as const;

export type FormFont = keyof typeof FORM_FONTS;
export const FORM_FONT_NAMES = Object.keys(FORM_FONTS) as FormFont[];

export interface FormStyles {
  /** `#rrggbb`: buttons, links and focus of forms. */
  primaryHex: string;
  /** `#rrggbb`: headings and secondary accents. */
  secondaryHex: string;
  font: FormFont;
  /** Corner radius of fields, buttons and cards, 0 to 16 px. */
  radiusPx: number;
}

export const HEX_COLOUR_PATTERN = '^#[0-9a-fA-F]{6}$';
export const MAX_RADIUS_PX = 16;

/** The portal's own look, which a reseller's styles replace. */
export const DEFAULT_FORM_STYLES: FormStyles = { primaryHex: '#2d72d2', secondaryHex: '#5f6b7c', font: 'system', radiusPx: 4 };

/** The CSS variables a set of styles gives (none for no styles: the stylesheet's defaults stand). */
export function formStyleVariables(styles: FormStyles | null | undefined): Record<string, string> {
  if (!styles) return {};
  return {
    '--portal-form-primary': styles.primaryHex,
    '--portal-form-secondary': styles.secondaryHex,
    '--portal-form-font': FORM_FONTS[styles.font] ?? FORM_FONTS.system,
    '--portal-form-radius': `${styles.radiusPx}px`,
  };
}
