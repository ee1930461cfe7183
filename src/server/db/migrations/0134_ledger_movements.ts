import { sql, type Kysely } from 'kysely';

/**
 * Every movement of money says what it was, how it was paid, who made it and what confirms it:
 * - `kind`: opening, purchase (a package), payment (a top up), refund, reset (a payment reversed), charge, adjustment.
 * - `method` of a payment or reset: CREDIT_CARD, BIT_PAY, BANK_WIRE, STRIPE or MANUAL (entered by the administrator).
 * - `fee`: what the payer paid on top of the amount credited (the amount is the balance's move; paid = amount + fee).
 * - `user_id`: the user who made the movement (none for the system's own); `confirmation_code`: the processor's.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .alterTable('ledger_entry')
    .addColumn('fee', sql`numeric(14, 2)`, (c) => c.notNull().defaultTo(0))
    .addColumn('method', 'text')
    .addColumn('user_id', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('confirmation_code', 'text')
    .execute();
  await sql`alter table ledger_entry add constraint ledger_entry_kind_check
    check (kind in ('opening', 'purchase', 'payment', 'refund', 'reset', 'charge', 'adjustment'))`.execute(db);
  await sql`alter table ledger_entry add constraint ledger_entry_method_check
    check (method in ('CREDIT_CARD', 'BIT_PAY', 'BANK_WIRE', 'STRIPE', 'MANUAL') and kind in ('payment', 'reset') or method is null)`.execute(db);
  await sql`alter table ledger_entry add constraint ledger_entry_fee_check check (fee >= 0)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`alter table ledger_entry drop constraint ledger_entry_fee_check, drop constraint ledger_entry_method_check, drop constraint ledger_entry_kind_check`.execute(
    db,
  );
  await db.schema.alterTable('ledger_entry').dropColumn('confirmation_code').dropColumn('user_id').dropColumn('method').dropColumn('fee').execute();
}
