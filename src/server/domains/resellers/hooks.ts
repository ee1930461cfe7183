import { sql, type Kysely } from 'kysely';
import type { EntityHooks } from '../../engine/routes';
import { fieldError, invalid } from '../../http/errors';
import type { Database } from '../../db/types';

/** Moves and creations in the reseller tree take turns, so two moves cannot make a cycle between them. */
const lockTree = (trx: Kysely<Database>) => sql`select pg_advisory_xact_lock(hashtext('reseller_tree'))`.execute(trx);

const pathOf = async (trx: Kysely<Database>, id: number) => (await trx.selectFrom('reseller').select('path').where('id', '=', id).executeTakeFirst())?.path;

/**
 * Resellers form a tree kept as materialised paths (`/-1/3/7/`: the provider, then each reseller down to the row).
 * A new reseller goes under the parent it names (the caller's own reseller by default), which the engine has checked
 * the caller may see. Moving a reseller under another parent rewrites the paths of its whole subtree in the same
 * transaction; a move under itself or its own subtree would make a cycle and is refused, as is moving the provider.
 * The caller's own reseller is its tenant: its parent is an `x-protected` field the engine keeps the caller from
 * changing.
 */
export const resellerHooks: EntityHooks = {
  async beforeWrite({ mode, values, existing, principal, trx }) {
    if (mode === 'create') {
      await lockTree(trx);
      const parentId = values.parentId === undefined || values.parentId === null ? principal.resellerId : Number(values.parentId);
      const parentPath = await pathOf(trx, parentId);
      if (parentPath === undefined) throw invalid([fieldError('parentId', 'reference', 'validation.reseller.notAllowed')]);
      const { rows } = await sql<{ id: number }>`select nextval(pg_get_serial_sequence('reseller', 'id'))::int as id`.execute(trx);
      const id = rows[0].id;
      return { ...values, id, parentId, path: `${parentPath}${id}/` };
    }
    if (!existing || !('parentId' in values) || Number(values.parentId) === Number(existing.parentId)) return values;
    if (existing.parentId === undefined || existing.parentId === null) throw invalid([fieldError('parentId', 'root', 'entity.reseller.moveRoot')]);
    if (values.parentId === null) throw invalid([fieldError('parentId', 'required', 'validation.select.required')]);
    await lockTree(trx);
    const id = Number(existing.id);
    const oldPath = (await pathOf(trx, id))!;
    const parentPath = await pathOf(trx, Number(values.parentId));
    if (parentPath === undefined) throw invalid([fieldError('parentId', 'reference', 'validation.reseller.notAllowed')]);
    if (parentPath.startsWith(oldPath)) throw invalid([fieldError('parentId', 'cycle', 'entity.reseller.cycle')]);
    const newPath = `${parentPath}${id}/`;
    // The subtree below the row; the row's own path is written with its other values (one version step for it).
    await trx
      .updateTable('reseller')
      .set({ path: sql<string>`${newPath} || substr(path, ${oldPath.length + 1})` })
      .where('path', 'like', `${oldPath.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
      .where('id', '<>', id)
      .execute();
    return { ...values, path: newPath };
  },
};
