import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Once per run: a folder for the data folders the portal fills at its first start, one per seed setting, which
 * each browser test's portal then starts from a copy of (see `startPortal`).
 */
export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'portal-e2e-templates-'));
  process.env.PORTAL_E2E_TEMPLATES = dir;
  return () => {
    delete process.env.PORTAL_E2E_TEMPLATES;
    rmSync(dir, { recursive: true, force: true });
  };
}
