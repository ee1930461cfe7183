import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@server/db';
import { ensureAdmin, seedDemo } from '@server/db/seed';

describe('the embedded database in DATA_DIR', () => {
  const dir = mkdtempSync(join(tmpdir(), 'portal-data-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps its rows across a restart and creates the admin and demo data only once', async () => {
    const first = await openDatabase({ dataDir: dir });
    expect(await ensureAdmin(first.db)).toMatch(/^.{12,}$/);
    expect((await seedDemo(first.db)).length).toBeGreaterThan(0);
    const accounts = Number(
      (
        await first.db
          .selectFrom('account')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    await first.close();

    const second = await openDatabase({ dataDir: dir });
    expect(await ensureAdmin(second.db)).toBeUndefined();
    expect(await seedDemo(second.db)).toEqual([]);
    const again = Number(
      (
        await second.db
          .selectFrom('account')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(again).toBe(accounts);
    await second.close();
    // Migrating and seeding the demo on disk takes 15 to 25 s on two shared cores: the default 30 s is too near.
  }, 120_000);
});
