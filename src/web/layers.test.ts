/**
 * The web app's layers: core < ui < engine < features/<name> < app. A file imports only from its own layer and the
 * layers below it (and from @shared); a feature never imports another feature. A test may also import app, to
 * render the whole app, but never another feature; main.tsx, build/ and test/ stand outside the layers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const web = dirname(fileURLToPath(import.meta.url));
const RANK: Record<string, number> = { core: 0, ui: 1, engine: 2, features: 3, app: 4 };

interface Layer {
  name: string;
  rank: number;
}

/** The layer of a path inside src/web (core, ui, engine, features/<name>, app), or none. */
function layerOf(path: string): Layer | undefined {
  const [top, next] = path.split('/');
  if (!(top in RANK)) return undefined;
  if (top === 'features') return next && next.includes('.') === false ? { name: `features/${next}`, rank: RANK.features } : undefined;
  return { name: top, rank: RANK[top] };
}

/** Why an import from one layer to another is not allowed, or undefined when it is. */
function violation(from: Layer, to: Layer): string | undefined {
  if (to.rank > from.rank) return `${from.name} may not import from ${to.name}, a layer above it`;
  if (from.rank === RANK.features && to.rank === RANK.features && from.name !== to.name) return `${from.name} may not import another feature (${to.name})`;
  return undefined;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*)['"]([^'"]+)['"]/g;

/** The specifiers a source file imports (static, dynamic and side-effect imports). */
function importsOf(source: string): string[] {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...text.matchAll(IMPORT)].map((match) => match[1]);
}

/** The path inside src/web an import names, or undefined for packages and files outside src/web. */
function targetOf(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('@web/')) return specifier.slice('@web/'.length);
  if (!specifier.startsWith('.')) return undefined;
  const path = relative(web, resolve(dirname(join(web, file)), specifier));
  return path.startsWith('..') ? undefined : path.split(sep).join('/');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(web, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every import that breaks the layers, as "file: import (reason)". */
function layerViolations(): string[] {
  const problems: string[] = [];
  for (const file of sourceFiles('')) {
    const from = layerOf(file);
    if (!from) continue;
    for (const specifier of importsOf(readFileSync(join(web, file), 'utf8'))) {
      const target = targetOf(file, specifier);
      const to = target === undefined ? undefined : layerOf(target);
      const test = /\.test\.tsx?$/.test(file);
      const reason = to && !(test && to.name === 'app') && violation(from, to);
      if (reason) problems.push(`src/web/${file}: '${specifier}' (${reason})`);
    }
  }
  return problems;
}

describe('web layers', () => {
  it('finds the layer of a path', () => {
    expect(layerOf('core/api.ts')?.name).toBe('core');
    expect(layerOf('features/jobs/JobsPage.tsx')).toEqual({ name: 'features/jobs', rank: RANK.features });
    expect(layerOf('main.tsx')).toBeUndefined();
  });

  it('refuses an import upward and one between features', () => {
    const core = layerOf('core/x.ts')!;
    const ui = layerOf('ui/x.tsx')!;
    const jobs = layerOf('features/jobs/x.tsx')!;
    const login = layerOf('features/login/x.tsx')!;
    expect(violation(ui, core)).toBeUndefined();
    expect(violation(core, ui)).toMatch(/core may not import from ui/);
    expect(violation(jobs, jobs)).toBeUndefined();
    expect(violation(jobs, login)).toMatch(/features\/jobs may not import another feature/);
    expect(violation(layerOf('engine/x.ts')!, jobs)).toMatch(/a layer above/);
  });

  it('reads static, dynamic and side-effect imports, not comments', () => {
    const source = "import a from './a';\nimport './b.css';\n// import { c } from './c';\nconst D = lazy(() => import('@web/d'));\nexport { e } from \"../e\";";
    expect(importsOf(source)).toEqual(['./a', './b.css', '@web/d', '../e']);
  });

  it('holds in src/web', () => {
    expect(layerViolations()).toEqual([]);
  });
});
