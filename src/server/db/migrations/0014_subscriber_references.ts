import { sql, type Kysely } from 'kysely';

/**
 * Subscribers' pricing plan and roaming profile, and sponsor IMSIs' sponsor, become foreign keys now that those
 * tables exist (migrations written side by side). A plan, profile or sponsor still in use cannot be deleted;
 * ids that point nowhere (none in practice) are cleared first, so the constraint can be added.
 */
export async function up(db: Kysely<any>) {
  await sql`update subscriber set pricing_plan_id = null where pricing_plan_id is not null and pricing_plan_id not in (select id from pricing_plan)`.execute(
    db,
  );
  await sql`update subscriber set roaming_profile_id = null where roaming_profile_id is not null and roaming_profile_id not in (select id from roaming_profile)`.execute(
    db,
  );
  await sql`update sponsor_imsi set sponsor_id = null where sponsor_id is not null and sponsor_id not in (select id from sponsor)`.execute(db);
  await sql`alter table subscriber add constraint subscriber_pricing_plan_fk foreign key (pricing_plan_id) references pricing_plan (id)`.execute(db);
  await sql`alter table subscriber add constraint subscriber_roaming_profile_fk foreign key (roaming_profile_id) references roaming_profile (id)`.execute(db);
  await sql`alter table sponsor_imsi add constraint sponsor_imsi_sponsor_fk foreign key (sponsor_id) references sponsor (id)`.execute(db);
  await sql`create index subscriber_pricing_plan_idx on subscriber (pricing_plan_id) where pricing_plan_id is not null`.execute(db);
  await sql`create index subscriber_roaming_profile_idx on subscriber (roaming_profile_id) where roaming_profile_id is not null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index subscriber_roaming_profile_idx`.execute(db);
  await sql`drop index subscriber_pricing_plan_idx`.execute(db);
  await sql`alter table sponsor_imsi drop constraint sponsor_imsi_sponsor_fk`.execute(db);
  await sql`alter table subscriber drop constraint subscriber_roaming_profile_fk`.execute(db);
  await sql`alter table subscriber drop constraint subscriber_pricing_plan_fk`.execute(db);
}
