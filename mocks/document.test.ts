/**
 * The mock backend against the server's OpenAPI document as `npm run api:gen` last wrote it (`openapi.gen.ts`, kept
 * current by test/server/api-gen.test.ts): every route a handler registers must be an operation of the document, and
 * the hand-written handler files must declare their routes through the document-typed `http` of `openapiHttp.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createHandlers } from './handlers';

const HERE = dirname(fileURLToPath(import.meta.url));
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** `/x/{id}` and `/x/:id` alike, trailing slash ignored as the server does. */
const shape = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z_]\w*/g, '{}').replace(/\/+$/, '') || '/';

const nameOf = (name: ts.PropertyName) => (ts.isStringLiteral(name) || ts.isIdentifier(name) ? name.text : '');

/** `METHOD /path` of every operation the generated `paths` interface declares (a method typed `never` is none). */
function documentOperations(): Set<string> {
  const file = join(HERE, 'openapi.gen.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const paths = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'paths');
  if (!paths) throw new Error('openapi.gen.ts declares no `paths`');
  const operations = new Set<string>();
  for (const item of paths.members) {
    if (!ts.isPropertySignature(item) || !item.type || !ts.isTypeLiteralNode(item.type)) continue;
    for (const member of item.type.members) {
      if (!ts.isPropertySignature(member) || !METHODS.has(nameOf(member.name))) continue;
      if (member.type?.kind === ts.SyntaxKind.NeverKeyword) continue;
      operations.add(`${nameOf(member.name).toUpperCase()} ${shape(nameOf(item.name))}`);
    }
  }
  return operations;
}

describe('the mock backend and the OpenAPI document', () => {
  it('registers no route that is not an operation of the document', () => {
    const operations = documentOperations();
    expect(operations.size).toBeGreaterThan(100);
    const mocked = createHandlers(undefined, '').map((h) => {
      const { method, path } = h.info as { method: unknown; path: unknown };
      return `${String(method)} ${shape(String(path))}`;
    });
    expect(mocked.length).toBeGreaterThan(20);
    expect(mocked.filter((route) => !operations.has(route))).toEqual([]);
  });

  it("declares the hand-written handlers through the document's paths, not MSW's untyped `http`", () => {
    // The entity handlers are generated from the same schemas the server registers its entity routes from.
    const handwritten = readdirSync(HERE).filter((f) => f.endsWith('Handlers.ts') && f !== 'entityHandlers.ts');
    expect(handwritten.length).toBeGreaterThan(5);
    const untyped = handwritten.filter((f) => {
      const text = readFileSync(join(HERE, f), 'utf8');
      return /import\s*\{[^}]*\bhttp\b[^}]*\}\s*from\s*'msw'/.test(text) || /\bhttp\.untyped\b/.test(text);
    });
    expect(untyped).toEqual([]);
  });
});
