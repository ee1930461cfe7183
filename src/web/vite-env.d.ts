/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base of every API call; defaults to `/portal` on the same origin. */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
