import { beforeAll, describe, expect, it } from 'vitest';
import { clientDocument, generateAll, staleFiles } from '../../scripts/api-gen';

// The mock backend's routes are held to the document's operations by mocks/document.test.ts, through the
// `mocks/openapi.gen.ts` this test keeps current.
describe('generated RTK Query endpoints and document types', () => {
  let doc: Record<string, unknown>;
  beforeAll(async () => {
    doc = await clientDocument();
  }, 120_000);

  it("match what the server's OpenAPI document generates now", async () => {
    const stale = await staleFiles(await generateAll(doc));
    expect(stale, `stale generated endpoints (run \`npm run api:gen\`): ${stale.join(', ')}`).toEqual([]);
  }, 120_000);
});
