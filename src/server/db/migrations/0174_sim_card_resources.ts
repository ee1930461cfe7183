import { sql, type Kysely } from 'kysely';

/**
 * The network resources a SIM card was made with: the IMSI of its first slot and, when the order was allocated
 * numbers, its MSISDN, both given by an order's technical allocation and kept with the card when the order is
 * delivered into inventory. Assigning the card to an account makes them the subscriber's. Cards added by hand,
 * and those seeded before, carry none. A card's IMSI and MSISDN are another card's neither (partial unique indexes:
 * cards without them cost nothing to index).
 */
export async function up(db: Kysely<any>) {
  await sql`alter table sim_card add column imsi text check (imsi ~ '^[0-9]{15}$'),
    add column msisdn text check (msisdn ~ '^[0-9]{8,15}$')`.execute(db);
  await sql`create unique index sim_card_imsi_key on sim_card (imsi) where imsi is not null`.execute(db);
  await sql`create unique index sim_card_msisdn_key on sim_card (msisdn) where msisdn is not null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`alter table sim_card drop column msisdn, drop column imsi`.execute(db);
}
