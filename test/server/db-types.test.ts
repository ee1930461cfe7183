import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TYPES_FILE, generateDatabaseTypes } from '../../src/server/db/generateTypes';

describe('database types', () => {
  it(`${TYPES_FILE} is what the migrations define`, async () => {
    const generated = await generateDatabaseTypes();
    const checkedIn = readFileSync(TYPES_FILE, 'utf8');
    expect(checkedIn === generated, `${TYPES_FILE} is stale: run \`npm run db:types\` and commit the result`).toBe(true);
  });
});
