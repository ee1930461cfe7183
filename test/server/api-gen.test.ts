import { describe, expect, it } from 'vitest';
import { clientDocument, generateAll, staleFiles } from '../../scripts/api-gen';

describe('generated RTK Query endpoints', () => {
  it('match what the server\'s OpenAPI document generates now', async () => {
    const stale = await staleFiles(await generateAll(await clientDocument()));
    expect(stale, `stale generated endpoints (run \`npm run api:gen\`): ${stale.join(', ')}`).toEqual([]);
  }, 120_000);
});
