import { beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../mocks/handlers';
import { clientDocument, generateAll, staleFiles } from '../../scripts/api-gen';

/** `/x/{id}` and `/x/:id` alike, trailing slash ignored as the server does. */
const shape = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z_]\w*/g, '{}').replace(/\/+$/, '') || '/';

describe('generated RTK Query endpoints', () => {
  let doc: Record<string, unknown>;
  beforeAll(async () => {
    doc = await clientDocument();
  }, 120_000);

  it("match what the server's OpenAPI document generates now", async () => {
    const stale = await staleFiles(await generateAll(doc));
    expect(stale, `stale generated endpoints (run \`npm run api:gen\`): ${stale.join(', ')}`).toEqual([]);
  }, 120_000);

  it('leave the mock backend no route the document does not describe', () => {
    const described = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const verb of Object.keys(item)) described.add(`${verb.toUpperCase()} ${shape(path)}`);
    }
    const mocked = createHandlers(undefined, '').map((h) => {
      const { method, path } = h.info as { method: unknown; path: unknown };
      return `${String(method)} ${shape(String(path))}`;
    });
    expect(mocked.length).toBeGreaterThan(20);
    expect(mocked.filter((route) => !described.has(route))).toEqual([]);
  });
});
