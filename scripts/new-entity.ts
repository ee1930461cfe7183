/**
 * `npm run new:entity -- <name> [--privilege Inventory] [--scope reseller|none] [--after Inventory] [--icon tag]`
 * writes the two files of a new entity and nothing else: `schemas/<name>.json` (a catalogue of named rows with a
 * description, a list and a form, a menu entry and English labels) and `src/server/db/migrations/NNNN_<table>.ts`
 * (the next free number; the table with its row version and the trigger raising it). Edit both to fit, run
 * `npm run db:types` for the table's types, then translate the labels `npm run i18n:check` lists.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PRIVILEGE_CATALOGUE } from '@shared/privileges';
import { formatProblems, schemaProblems } from '@shared/schemaCheck';

const root = fileURLToPath(new URL('../', import.meta.url));

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    privilege: { type: 'string', default: 'Inventory' },
    scope: { type: 'string', default: 'reseller' },
    after: { type: 'string', default: 'Inventory' },
    icon: { type: 'string', default: 'tag' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const kebab = positionals[0] ?? fail('Usage: npm run new:entity -- <name>   (e.g. device-model)');
if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(kebab)) fail(`"${kebab}" is not a lower-case name with dashes, e.g. device-model`);
if (!PRIVILEGE_CATALOGUE.some((p) => p.privilege === values.privilege)) fail(`"${values.privilege}" is no privilege of src/shared/privileges.ts`);
if (values.scope !== 'reseller' && values.scope !== 'none') fail('--scope is reseller or none');

const name = kebab.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const table = kebab.replace(/-/g, '_');
const plural = kebab.endsWith('s') ? kebab : kebab.endsWith('y') ? `${kebab.slice(0, -1)}ies` : `${kebab}s`;
const words = kebab.replace(/-/g, ' ');
const single = words[0].toUpperCase() + words.slice(1);
const pluralWords = plural.replace(/-/g, ' ');
const byReseller = values.scope === 'reseller';

const schemaFile = join(root, 'schemas', `${kebab}.json`);
const migrations = join(root, 'src/server/db/migrations');
const taken = readdirSync(migrations).filter((f) => /^\d{4}_/.test(f));
if (existsSync(schemaFile)) fail(`${schemaFile} exists already`);
if (taken.some((f) => f.slice(5) === `${table}.ts`)) fail(`a migration for ${table} exists already`);
const number = String(Math.max(0, ...taken.map((f) => Number(f.slice(0, 4)))) + 1).padStart(4, '0');
const migrationFile = join(migrations, `${number}_${table}.ts`);

const field = (f: string) => `entity.${name}.field.${f}`;
const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: name,
  title: `entity.${name}.title`,
  type: 'object',
  required: ['name'],
  properties: {
    id: { type: 'integer', readOnly: true, title: field('id'), 'x-label': 'ID' },
    name: {
      type: 'string',
      minLength: 2,
      maxLength: 50,
      title: field('name'),
      'x-label': 'Name',
      'x-unique': byReseller ? { scope: ['resellerId'] } : true,
      errorMessage: { required: 'validation.name.required', minLength: 'validation.name.invalid', maxLength: 'validation.name.tooLong' },
    },
    description: { type: 'string', maxLength: 250, title: field('description'), 'x-label': 'Description', errorMessage: { maxLength: 'validation.max250' } },
    ...(byReseller ? { resellerId: { type: 'integer', title: field('resellerId'), 'x-label': 'Reseller', 'x-reference': 'reseller' } } : {}),
  },
  'x-entity': {
    name,
    domain: plural,
    table,
    key: 'id',
    privilege: values.privilege,
    scope: values.scope,
    ...(byReseller ? {} : { adminWrites: true }),
    labels: { single, plural: pluralWords[0].toUpperCase() + pluralWords.slice(1) },
    routes: { list: `/${plural}`, detail: `/${kebab}/{id}` },
    menu: { after: values.after, icon: values.icon },
  },
  'x-api': {
    list: `GET /portal/${plural}`,
    paged: `POST /portal/${plural}/paged`,
    get: `GET /portal/${plural}/{id}`,
    create: `POST /portal/${plural}/`,
    update: `PUT /portal/${plural}/`,
    delete: `DELETE /portal/${plural}/{id}`,
  },
  'x-list': {
    defaultSort: { sortBy: 'name', sortDir: 'asc' },
    listFields: ['id', 'name'],
    search: [{ by: 'multi', title: 'search.by.multi', fields: ['id', 'name'] }, { by: 'name' }, ...(byReseller ? [{ by: 'resellerId' }] : [])],
  },
  'x-columns': [
    { field: 'id', width: 90 },
    { field: 'name', flex: 2 },
    { field: 'description', flex: 3 },
  ],
  'x-ui': {
    'ui:order': ['name', 'description', '*'],
    description: { 'ui:widget': 'textarea' },
    ...(byReseller ? { resellerId: { 'ui:widget': 'reseller' } } : {}),
    id: { 'ui:widget': 'hidden' },
  },
};

const problems = schemaProblems(`schemas/${kebab}.json`, schema);
if (problems.length) fail(formatProblems(problems));

const migration = `import { sql, type Kysely } from 'kysely';

/** ${single}: the table of schemas/${kebab}.json, with the row version every updated entity carries. */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('${table}')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
${byReseller ? `    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))\n` : ''}    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql\`create unique index ${table}_name_uq on ${table} (${byReseller ? 'reseller_id, ' : ''}lower(name))\`.execute(db);
  await sql\`create trigger ${table}_version before update on ${table} for each row execute function raise_row_version()\`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('${table}').execute();
}
`;

writeFileSync(schemaFile, `${JSON.stringify(schema, null, 2)}\n`);
writeFileSync(migrationFile, migration);
console.log(`Wrote schemas/${kebab}.json and src/server/db/migrations/${number}_${table}.ts`);
console.log('Next: edit both to fit, run `npm run db:types` for the types of its table, restart, and translate what `npm run i18n:check` lists.');
