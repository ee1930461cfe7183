import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompressPlugin } from './src/web/build/precompressPlugin.ts';
import { worldAtlasPlugin } from './src/web/build/worldAtlasPlugin.ts';
import { formValidatorsPlugin } from './src/web/engine/form/validatorsPlugin.ts';

const dir = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export const alias = {
  '@shared': dir('./src/shared'),
  '@web': dir('./src/web'),
  '@server': dir('./src/server'),
  '@schemas': dir('./schemas'),
};

export default defineConfig({
  root: dir('./src/web'),
  base: './',
  // The form validators are precompiled from schemas/: the Content-Security-Policy forbids compiling them in the browser.
  // The build's files also come brotli- and gzip-compressed, for the server to serve as they are; the world map's
  // shapes are simplified as they are bundled.
  plugins: [react(), formValidatorsPlugin(dir('./schemas')), worldAtlasPlugin(), precompressPlugin()],
  resolve: { alias },
  build: { outDir: dir('./dist/web'), emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/portal': 'http://127.0.0.1:8080' } },
  test: {
    root: dir('.'),
    environment: 'node',
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
    // Vitest's default leaves a core to itself: one worker on a two-core machine. The suites wait on PostgreSQL, on
    // timers and on password hashing (off the main thread) much of the time, so two workers there finish far sooner.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.{ts,tsx}', 'mocks/**/*.test.ts'] } },
      // The server suites start from copies of a database migrated and seeded once per run, by the global setup
      // (which runs only when a server suite does).
      { extends: true, test: { name: 'server', include: ['test/server/**/*.test.ts'], globalSetup: ['test/server/globalSetup.ts'] } },
    ],
  },
});
