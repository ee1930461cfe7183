/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base of every API call; defaults to `/portal` on the same origin. */
  readonly VITE_API_BASE?: string;
  /** The product's public website, linked after a join request; defaults to the portal's own root. */
  readonly VITE_PRODUCT_URL?: string;
  /** E-mail address of the data protection officer, shown in the privacy policy. */
  readonly VITE_PRIVACY_CONTACT_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
