/** Constants of the web app, in one place so a reader finds every limit the specification sets. */
import { version } from '../../../package.json';

/** Every call sits under one base so the app can point at another backend that speaks the same contract. */
export const API_BASE = (import.meta.env.VITE_API_BASE || '/portal').replace(/\/+$/, '');

/** The schemas' `x-api` paths are written with the default base; this swaps it for the configured one. */
export function apiPath(schemaPath: string): string {
  return schemaPath.replace(/^\/portal(?=\/|$)/, '') || '/';
}

export const CLIENT_VERSION = version;
export const API_TIMEOUT_MS = 60_000;
/** The token is renewed this long before it expires. */
export const RENEW_BEFORE_EXPIRY_S = 900;
/** Below this width the side menu becomes a drawer. */
export const MOBILE_BREAKPOINT_PX = 920;

/** The product's public website, linked from the join form's thank-you message. */
export const PRODUCT_URL = import.meta.env.VITE_PRODUCT_URL || '/';

/** Where the privacy policy sends questions for the data protection officer; without it, to the product website. */
export const PRIVACY_CONTACT_EMAIL = import.meta.env.VITE_PRIVACY_CONTACT_EMAIL || '';
