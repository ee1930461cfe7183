import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EntitySchema } from '@shared/schema';

export const SCHEMA_DIR = fileURLToPath(new URL('../../../schemas/', import.meta.url));

/** Every entity schema in schemas/, read once at start-up. */
export function loadSchemas(dir = SCHEMA_DIR): EntitySchema[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as EntitySchema);
}
