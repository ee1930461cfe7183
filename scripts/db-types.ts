/** Writes the database types the migrations define (`npm run db:types`); run it after adding a migration. */
import { writeFileSync } from 'node:fs';
import { TYPES_FILE, generateDatabaseTypes } from '../src/server/db/generateTypes';

writeFileSync(TYPES_FILE, await generateDatabaseTypes());
console.log(`wrote ${TYPES_FILE}`);
