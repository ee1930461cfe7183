/**
 * Following docs/adding-an-entity.md on a copy of the project: the scaffold writes a throwaway entity, and the
 * suites that cover every schema (meta-schema, menu, list and form on the mocks, contract, access matrix) and the
 * catalogue check pass on it with no other file touched.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every file of the project: tracked or new, ignored ones and files deleted in the working tree aside. */
function projectFiles(): string[] {
  return execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && f !== 'node_modules' && existsSync(join(root, f)));
}

/** The files of a tree with a hash of each one's content. */
function filesOf(dir: string): Map<string, string> {
  const listed = execFileSync('find', ['.', '-path', './node_modules', '-prune', '-o', '-type', 'f', '-print0'], { cwd: dir, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean)
    .map((f) => f.slice(2));
  return new Map(
    listed.map((f) => [
      f,
      createHash('sha1')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  );
}

describe('a new entity is a schema and a migration', () => {
  let tree: string;
  let changed: string[];
  const node = (args: string[]) =>
    spawnSync(process.execPath, args, { cwd: tree, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'test', FORCE_COLOR: '0' }, timeout: 540_000 });

  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'portal-entity-'));
    for (const file of projectFiles()) {
      mkdirSync(dirname(join(tree, file)), { recursive: true });
      writeFileSync(join(tree, file), readFileSync(join(root, file)));
    }
    symlinkSync(realpathSync(join(root, 'node_modules')), join(tree, 'node_modules'));
    const before = filesOf(tree);
    const scaffold = node(['node_modules/tsx/dist/cli.mjs', 'scripts/new-entity.ts', 'probe-widget', '--after', 'Roles', '--icon', 'box']);
    expect(scaffold.status, scaffold.stderr).toBe(0);
    const after = filesOf(tree);
    changed = [...after]
      .filter(([f, hash]) => before.get(f) !== hash)
      .map(([f]) => f)
      .sort();
  });
  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  it('needs two files, written by the scaffold', () => {
    console.log(`files the new entity needed: ${changed.length} (${changed.join(', ')})`);
    expect(changed).toEqual(['schemas/probe-widget.json', expect.stringMatching(/^src\/server\/db\/migrations\/\d{4}_probe_widget\.ts$/)]);
  });

  it('passes the meta-schema, the menu, its screens on the mocks, the contract and the access matrix', () => {
    const run = node([
      'node_modules/vitest/vitest.mjs',
      'run',
      '--reporter=verbose',
      '-t',
      'probeWidget|probe-widget',
      'src/shared/schemaCheck.test.ts',
      'src/web/app/menu.test.ts',
      'src/web/app/entityScreens.test.tsx',
      'test/server/contract.test.ts',
      'test/server/access-matrix.test.ts',
    ]);
    const out = `${run.stdout}\n${run.stderr}`;
    expect(run.status, out).toBe(0);
    const passed = out
      .split('\n')
      .filter((l) => /✓/.test(l) && /probe|creates, reads|out of reach|refuses resellerId|after the one it names|a titled list/.test(l));
    // The schema check, the menu entry, the screens against the mocks, the contract round trip, the reseller wall
    // and the reference check.
    expect(passed.length, out).toBeGreaterThanOrEqual(6);
  }, 600_000);

  it('lists its labels for translation without failing the catalogue check', () => {
    const check = node(['node_modules/tsx/dist/cli.mjs', 'scripts/i18n-check.ts']);
    expect(check.status, check.stdout + check.stderr).toBe(0);
    for (const locale of ['ru', 'de', 'he', 'zh-Hans', 'es'])
      expect(check.stdout).toMatch(new RegExp(`${locale}: \\d+ to translate .*entity\\.probeWidget\\.single`));
  });
});
