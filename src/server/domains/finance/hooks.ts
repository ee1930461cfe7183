import { sql } from 'kysely';
import type { EntityHooks } from '../../engine/routes';
import { conflict, fieldError, invalid } from '../../http/errors';

/**
 * The chart of accounts: a system account (one the journal posts to, migration 0140) keeps its code and type and
 * cannot be deleted; an account other rows still name (journal lines, billing products) cannot be deleted either
 * (the engine answers 409 "in use" from the foreign key).
 */
export const ledgerAccountHooks: EntityHooks = {
  async beforeWrite({ mode, values, existing }) {
    if (mode !== 'update' || !existing?.system) return values;
    const errors = [];
    if (values.type !== undefined && values.type !== existing.type) errors.push(fieldError('type', 'system', 'validation.ledgerAccount.systemType'));
    if (values.code !== undefined && values.code !== existing.code) errors.push(fieldError('code', 'system', 'validation.ledgerAccount.systemCode'));
    if (errors.length) throw invalid(errors);
    return values;
  },
  async beforeDelete({ existing }) {
    if (existing.system) throw conflict([fieldError('code', 'system', 'validation.ledgerAccount.systemDelete')]);
  },
};

/** A billing product books its sales to a revenue account of the chart. */
export const billingProductHooks: EntityHooks = {
  async beforeWrite({ values, existing, trx }) {
    const code = (values.accountCode ?? existing?.accountCode) as string;
    const { rows } = await sql<{ type: string }>`select type from ledger_account where code = ${code}`.execute(trx);
    if (rows[0]?.type !== 'revenue') throw invalid([fieldError('accountCode', 'reference', 'validation.billingProduct.account')]);
    return values;
  },
};
