import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '@server/db';
import { migratedDatabase, publishSnapshots, seedTestDemo, type Snapshots } from './helpers';

/**
 * Once per run, before the server suites: the migrated database and the demo data every `testApp` starts from,
 * on each engine. Migrating and seeding cost each suite seconds (PGlite's initdb most); a copy costs a fraction.
 */
export default async function setup() {
  const run = randomBytes(4).toString('hex');
  const dir = await mkdtemp(join(tmpdir(), 'portal-test-'));
  const base = process.env.TEST_DATABASE_URL;

  async function pglite(): Promise<Snapshots['pglite']> {
    const database = await migratedDatabase('pglite');
    try {
      const migrated = join(dir, 'migrated.tar');
      await writeFile(migrated, Buffer.from(await (await database.dumpDataDir!()).arrayBuffer()));
      const demoPassword = await seedTestDemo(database.db);
      const demo = join(dir, 'demo.tar');
      await writeFile(demo, Buffer.from(await (await database.dumpDataDir!()).arrayBuffer()));
      return { migrated, demo, demoPassword };
    } finally {
      await database.close();
    }
  }

  // A template database must have no connection while it is copied: each is closed once it is built.
  async function postgres(): Promise<Snapshots['postgres']> {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      const migrated = `tpl_${run}_migrated`;
      const demo = `tpl_${run}_demo`;
      await admin.query(`create database ${migrated}`);
      const url = new URL(base!);
      url.pathname = `/${migrated}`;
      await (await openDatabase({ databaseUrl: url.toString() })).close();
      await admin.query(`create database ${demo} template ${migrated}`);
      url.pathname = `/${demo}`;
      const database = await openDatabase({ databaseUrl: url.toString() });
      try {
        return { migrated, demo, demoPassword: await seedTestDemo(database.db) };
      } finally {
        await database.close();
      }
    } finally {
      await admin.end();
    }
  }

  /** Drops the run's databases: the templates and any copy a suite left behind. */
  async function dropDatabases() {
    if (!base) return;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like $1 or datname like $2`, [
        `tpl\\_${run}\\_%`,
        `t\\_${run}\\_%`,
      ]);
      for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
    } finally {
      await admin.end();
    }
  }

  try {
    const [lite, server] = await Promise.all([pglite(), base ? postgres() : undefined]);
    publishSnapshots({ run, pglite: lite, postgres: server });
  } catch (e) {
    await dropDatabases();
    await rm(dir, { recursive: true, force: true });
    throw e;
  }

  return async () => {
    publishSnapshots(undefined);
    await dropDatabases();
    await rm(dir, { recursive: true, force: true });
  };
}
