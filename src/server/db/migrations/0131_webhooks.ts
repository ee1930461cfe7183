import { sql, type Kysely } from 'kysely';

/**
 * Webhooks of resellers: one URL per reseller and event type, a signing secret per reseller, and the outbox of
 * deliveries with every attempt. Triggers fill the outbox in the transaction of the change itself:
 * a subscriber's status, an eSIM's status and a successful location report of the network event log each become an
 * event for the subscriber's reseller and every reseller above it that has a URL for that type.
 */
export async function up(db: Kysely<any>) {
  const types = sql.raw(`('MOBILE_EVENT', 'ESIM_STATUS', 'LOCATION_UPDATE', 'VOIP', 'SUBSCRIPTION_STATUS_UPDATE')`);
  await sql`create table webhook_endpoint (
    reseller_id integer not null references reseller (id) on delete cascade,
    event_type text not null check (event_type in ${types}),
    url text not null,
    updated_at timestamptz not null default now(),
    primary key (reseller_id, event_type)
  )`.execute(db);
  await sql`create index webhook_endpoint_type_idx on webhook_endpoint (event_type)`.execute(db);
  await sql`create table webhook_secret (
    reseller_id integer primary key references reseller (id) on delete cascade,
    secret text not null,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table webhook_delivery (
    id bigserial primary key,
    event_id uuid not null default gen_random_uuid(),
    reseller_id integer not null references reseller (id) on delete cascade,
    event_type text not null check (event_type in ${types} or event_type = 'TEST'),
    url text not null,
    data jsonb not null,
    status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
    attempts integer not null default 0,
    next_attempt_at timestamptz not null default now(),
    last_status_code integer,
    last_error text,
    last_latency_ms integer,
    created_at timestamptz not null default now(),
    finished_at timestamptz
  )`.execute(db);
  await sql`create index webhook_delivery_due_idx on webhook_delivery (next_attempt_at) where status = 'pending'`.execute(db);
  await sql`create index webhook_delivery_reseller_idx on webhook_delivery (reseller_id, id)`.execute(db);
  await sql`create table webhook_attempt (
    id bigserial primary key,
    delivery_id bigint not null references webhook_delivery (id) on delete cascade,
    attempted_at timestamptz not null default now(),
    status_code integer,
    error text,
    latency_ms integer not null
  )`.execute(db);
  await sql`create index webhook_attempt_delivery_idx on webhook_attempt (delivery_id, id)`.execute(db);

  // Row triggers on a status that changed: an update of other columns (a bulk change of a million rows' plans, say)
  // fires nothing and keeps no copy of the rows it changed.
  await fanOut('webhook_subscriber_status', 'SUBSCRIPTION_STATUS_UPDATE', {
    data: `'subscriberId', new.subscriber_id, 'imsi', new.imsi, 'iccid', new.iccid, 'msisdn', new.msisdn, 'accountId', new.account_id,
      'resellerId', new.reseller_id, 'status', new.status, 'previousStatus', old.status`,
    from: '(select 1) x',
    reseller: 'new.reseller_id',
    where: 'true',
    order: 'e.reseller_id',
  }).execute(db);
  await sql`create trigger subscriber_webhook after update of status on subscriber
    for each row when (old.status is distinct from new.status) execute function webhook_subscriber_status()`.execute(db);

  await fanOut('webhook_esim_status', 'ESIM_STATUS', {
    data: `'iccid', new.iccid, 'subscriberId', s.subscriber_id, 'imsi', s.imsi, 'resellerId', new.reseller_id,
      'status', new.status, 'previousStatus', old.status`,
    from: '(select 1) x left join subscriber s on s.iccid = new.iccid',
    reseller: 'new.reseller_id',
    where: 'true',
    order: 'e.reseller_id',
  }).execute(db);
  await sql`create trigger sim_card_webhook after update of status on sim_card
    for each row when (new.sim_type = 'esim' and old.status is distinct from new.status) execute function webhook_esim_status()`.execute(db);

  await fanOut('webhook_location_update', 'LOCATION_UPDATE', {
    data: `'subscriberId', s.subscriber_id, 'imsi', s.imsi, 'iccid', s.iccid, 'resellerId', s.reseller_id,
      'operation', n.operation, 'plmn', n.plmn, 'country', net.country, 'network', coalesce(net.brand, net.operator),
      'reportedAt', n.created_at`,
    from: 'new_rows n join subscriber s on s.subscriber_id = n.subscriber_id left join network net on net.plmn = n.plmn',
    reseller: 's.reseller_id',
    where: `n.result = 'success' and n.operation in ('updateLocation', 'updateGprsLocation', 'attach')`,
    order: 'n.id',
  }).execute(db);
  await sql`create trigger network_event_webhook after insert on network_event referencing new table as new_rows
    for each statement execute function webhook_location_update()`.execute(db);
}

/**
 * A trigger function that queues an event of `type` for every changed row `where` picks: one delivery per reseller
 * with a URL for the type among the row's reseller and those above it (whose path is a prefix of its path).
 */
export function fanOut(name: string, type: string, q: { data: string; from: string; reseller: string; where: string; order: string }) {
  return sql.raw(`create function ${name}() returns trigger language plpgsql as $$
  begin
    if not exists (select 1 from webhook_endpoint where event_type = '${type}') then return null; end if;
    insert into webhook_delivery (reseller_id, event_type, url, data)
    select e.reseller_id, e.event_type, e.url, jsonb_build_object(${q.data})
      from ${q.from}
      join reseller r on r.id = ${q.reseller}
      join webhook_endpoint e on e.event_type = '${type}'
      join reseller a on a.id = e.reseller_id and r.path like a.path || '%'
     where ${q.where}
     order by ${q.order}, e.reseller_id;
    return null;
  end $$`);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger network_event_webhook on network_event`.execute(db);
  await sql`drop trigger sim_card_webhook on sim_card`.execute(db);
  await sql`drop trigger subscriber_webhook on subscriber`.execute(db);
  await sql`drop function webhook_location_update()`.execute(db);
  await sql`drop function webhook_esim_status()`.execute(db);
  await sql`drop function webhook_subscriber_status()`.execute(db);
  await sql`drop table webhook_attempt`.execute(db);
  await sql`drop table webhook_delivery`.execute(db);
  await sql`drop table webhook_secret`.execute(db);
  await sql`drop table webhook_endpoint`.execute(db);
}
