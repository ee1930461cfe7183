import { defineConfig } from 'vitest/config';
import { alias } from './vite.config.ts';

/** Browser tests: the real server (`npm run serve`) on a fresh data folder, driven through Debian's Chromium. */
export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 120000,
    hookTimeout: 180000,
    // Two files at a time: each waits mostly on its portal and browser, so two share the cores of a small machine.
    maxWorkers: 2,
    globalSetup: ['test/e2e/e2eSetup.ts'],
  },
});
