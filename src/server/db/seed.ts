import { sql, type Kysely } from 'kysely';
import { ADMIN_ONLY, ADMIN_RESELLER_ID, PRIVILEGE_CATALOGUE, type PrivilegeItem } from '@shared/privileges';
import { generatePassword, hashPassword } from '../domains/auth/password';
import { ensureNetworks } from '../domains/networks/catalogue';
import { seedPricing } from './seedPricing';
import { seedOrders } from './seedOrders';
import { seedPrepaid } from './seedPrepaid';
import { seedResellerPricing } from './seedResellerPricing';
import { seedInventory } from './seedInventory';
import { seedNetworkEvents } from './seedNetworkEvents';
import { seedSubscribers } from './seedSubscribers';
import { demoOpenedAt, seedSales } from './seedSales';
import { seedUsage } from './seedUsage';
import type { Database } from './types';

export interface SeedReport {
  adminPassword?: string;
  demoUsers: { username: string; password: string; role: string }[];
}

/** The whole catalogue but `except`; the administrator's privilege only when asked for (a provider's role alone may hold it). */
const allPrivileges = (except: string[] = [ADMIN_ONLY]): PrivilegeItem[] =>
  PRIVILEGE_CATALOGUE.filter((p) => !except.includes(p.privilege)).map((p) => ({ ...p, subPrivileges: [...p.subPrivileges] }));

/** The provider itself (reseller -1), its administrator role and the admin user, on an empty database. */
export async function ensureAdmin(db: Kysely<Database>, password?: string): Promise<string | undefined> {
  if (await db.selectFrom('appUser').select('id').limit(1).executeTakeFirst()) return undefined;
  const chosen = password ?? generatePassword();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('reseller')
      .values({ id: ADMIN_RESELLER_ID, name: 'Connectivity Provider', parentId: null, path: `/${ADMIN_RESELLER_ID}/`, accentColorHex: null })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const role = await trx
      .insertInto('role')
      .values({ name: 'Administrator', resellerId: ADMIN_RESELLER_ID, privileges: JSON.stringify(allPrivileges([])) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('appUser')
      .values({
        username: 'admin',
        email: null,
        passwordHash: await hashPassword(chosen),
        firstName: 'Administrator',
        lastName: null,
        resellerId: ADMIN_RESELLER_ID,
        accountId: null,
        roleId: role.id,
        preferences: null,
      })
      .execute();
  });
  return password ? undefined : chosen;
}

const DEMO_RESELLERS = [
  { name: 'Northwind Mobile', parent: null, accent: '#c99a2e' },
  { name: 'Northwind IoT', parent: 'Northwind Mobile', accent: null },
  { name: 'Blue Sky Telecom', parent: null, accent: '#2d72d2' },
];

const DEMO_ACCOUNTS: [string, string, string, string][] = [
  ['Harbor Logistics', 'Rotterdam', 'NL', 'Northwind Mobile'],
  ['Alpine Sensors', 'Zurich', 'CH', 'Northwind IoT'],
  ['Meridian Fleet', 'Hamburg', 'DE', 'Northwind Mobile'],
  ['Cedar Health', 'Toronto', 'CA', 'Blue Sky Telecom'],
  ['Lumen Metering', 'Lyon', 'FR', 'Northwind IoT'],
  ['Pacific Rail', 'Seattle', 'US', 'Blue Sky Telecom'],
  ['Orion Security', 'Madrid', 'ES', 'Northwind Mobile'],
  ['Tundra Freight', 'Oslo', 'NO', 'Northwind Mobile'],
  ['Kestrel Drones', 'Tel Aviv', 'IL', 'Blue Sky Telecom'],
  ['Sakura Vending', 'Osaka', 'JP', 'Blue Sky Telecom'],
  ['Atlas Agritech', 'Valencia', 'ES', 'Northwind IoT'],
  ['Baltic Ferries', 'Riga', 'LV', 'Northwind Mobile'],
  ['Quartz Payments', 'Dublin', 'IE', 'Blue Sky Telecom'],
  ['Sierra Telematics', 'Denver', 'US', 'Blue Sky Telecom'],
  ['Volga Energy', 'Kazan', 'RU', 'Northwind Mobile'],
  ['Delta Wearables', 'Shenzhen', 'CN', 'Northwind IoT'],
  ['Fjord Aquaculture', 'Bergen', 'NO', 'Northwind IoT'],
  ['Sunbelt Solar', 'Phoenix', 'US', 'Blue Sky Telecom'],
  ['Granite Construction IoT', 'Munich', 'DE', 'Northwind Mobile'],
  ['Coral Reef Tours', 'Eilat', 'IL', 'Blue Sky Telecom'],
  ['Nimbus Weather', 'Reykjavik', 'IS', 'Northwind IoT'],
  ['Andes Mining', 'Santiago', 'CL', 'Blue Sky Telecom'],
  ['Kiwi Cold Chain', 'Auckland', 'NZ', 'Northwind Mobile'],
  ['Danube Parcels', 'Vienna', 'AT', 'Northwind Mobile'],
];

/** IMSI sponsors: home networks whose IMSI ranges the demo SIMs use. */
const DEMO_SPONSORS = [
  { name: 'Orbit Home NL', plmn: '20404', imsiPrefix: '2040412', country: 'NL', description: 'Dutch IMSI range, multi-IMSI primary' },
  { name: 'Orbit Home UK', plmn: '23410', imsiPrefix: '2341077', country: 'GB', description: 'UK IMSI range for Europe and North America' },
  { name: 'Orbit Home US', plmn: '310260', imsiPrefix: '31026099', country: 'US', description: 'US IMSI range for the Americas' },
];

/** Allowed lists with networks blocked (confirmed) and some changes waiting for a sync. */
const DEMO_ALLOWED_LISTS = [
  {
    name: 'Europe standard',
    reference: 'NW-EU-STD',
    sponsor: 'Orbit Home NL',
    reseller: 'Northwind Mobile',
    blocked: ['23420', '20810', '26203'],
    pending: ['21407'],
  },
  { name: 'IoT worldwide', reference: 'NWIOT-WW', sponsor: 'Orbit Home UK', reseller: 'Northwind IoT', blocked: ['310120', '44020'], pending: [] },
  { name: 'Americas', reference: 'BST-AMER-01', sponsor: 'Orbit Home US', reseller: 'Blue Sky Telecom', blocked: ['334050', '72405'], pending: ['302720'] },
];

async function seedAllowedLists(trx: Kysely<Database>, resellerIds: Map<string, number>) {
  for (const l of DEMO_ALLOWED_LISTS) {
    const sponsor = await trx.selectFrom('sponsor').select('id').where('name', '=', l.sponsor).executeTakeFirstOrThrow();
    const { allowedListId } = await trx
      .insertInto('allowedList')
      .values({
        name: l.name,
        reference: l.reference,
        sponsorId: sponsor.id,
        resellerId: resellerIds.get(l.reseller)!,
        syncStartedAt: null,
        syncFinishedAt: null,
      })
      .returning('allowedListId')
      .executeTakeFirstOrThrow();
    await sql`insert into allowed_list_network (allowed_list_id, network_id, applied, target)
      select ${allowedListId}, id, case when plmn in (${sql.join(['', ...l.blocked])}) then 'blocked' else 'preferred' end,
        case when plmn in (${sql.join(['', ...l.pending])}) then 'blocked' end
      from network where withdrawn_at is null`.execute(trx);
  }
}

/**
 * Demo resellers with a sub-reseller, roles, users and accounts for the embedded database, and `subscribers`
 * subscribers with their SIMs spread over the accounts, their usage, (unless `sales` is false) a year of package
 * sales and (unless `networkEvents` is false) a month of network events.
 */
export async function seedDemo(
  db: Kysely<Database>,
  opts: { subscribers?: number; networkEvents?: boolean; sales?: boolean } = {},
): Promise<SeedReport['demoUsers']> {
  const sales = opts.sales ?? true;
  if (await db.selectFrom('reseller').select('id').where('id', '<>', ADMIN_RESELLER_ID).limit(1).executeTakeFirst()) return [];
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const users: SeedReport['demoUsers'] = [];
  await ensureNetworks(db);
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('sponsor').values(DEMO_SPONSORS).execute();
    const ids = new Map<string, number>();
    for (const r of DEMO_RESELLERS) {
      const parentId = r.parent ? ids.get(r.parent)! : ADMIN_RESELLER_ID;
      const parentPath = r.parent
        ? (await trx.selectFrom('reseller').select('path').where('id', '=', parentId).executeTakeFirstOrThrow()).path
        : `/${ADMIN_RESELLER_ID}/`;
      const { id } = await trx
        .insertInto('reseller')
        .values({ name: r.name, parentId, path: '', accentColorHex: r.accent })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('reseller')
        .set({ path: `${parentPath}${id}/` })
        .where('id', '=', id)
        .execute();
      ids.set(r.name, id);
    }
    await seedAllowedLists(trx, ids);
    let accountNo = 0;
    const accountIds = new Map<string, number>();
    for (const [name, city, country, reseller] of DEMO_ACCOUNTS) {
      accountNo += 1;
      const row = await trx
        .insertInto('account')
        .values({
          name,
          city,
          country,
          address: `${10 + accountNo} Harbour Street`,
          email: `ops@${name.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
          usageCredit: (accountNo * 125.5).toFixed(2),
          resellerId: ids.get(reseller)!,
          inventoryAccount: false,
        })
        .returning('accountId')
        .executeTakeFirstOrThrow();
      accountIds.set(name, Number(row.accountId));
    }
    for (const reseller of ['Northwind Mobile', 'Blue Sky Telecom']) {
      await trx
        .insertInto('account')
        .values({ name: `${reseller} Inventory`, resellerId: ids.get(reseller)!, inventoryAccount: true, country: null })
        .execute();
    }
    await seedPricing(trx as Kysely<Database>, ids);
    await seedResellerPricing(trx as Kysely<Database>, ids);
    const roleFor = async (resellerName: string, name: string, privileges: PrivilegeItem[]) =>
      (
        await trx
          .insertInto('role')
          .values({ name, resellerId: ids.get(resellerName)!, privileges: JSON.stringify(privileges) })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const demoUsers: [string, string, string, string, string | null, PrivilegeItem[]][] = [
      ['northwind', 'Nora', 'Northwind Mobile', 'Reseller manager', null, allPrivileges([ADMIN_ONLY, 'Roles'])],
      ['northwind-iot', 'Ivan', 'Northwind IoT', 'Reseller manager', null, allPrivileges([ADMIN_ONLY, 'Roles'])],
      ['bluesky', 'Bella', 'Blue Sky Telecom', 'Reseller manager', null, allPrivileges()],
      [
        'harbor',
        'Hugo',
        'Northwind Mobile',
        'Account user',
        'Harbor Logistics',
        allPrivileges().filter((p) => ['Dashboard', 'Accounts', 'Subscribers'].includes(p.privilege)),
      ],
    ];
    for (const [username, firstName, reseller, role, account, privileges] of demoUsers) {
      const roleId = await roleFor(reseller, `${role}${account ? ` (${account})` : ''}`, privileges);
      await trx
        .insertInto('appUser')
        .values({
          username,
          email: `${username}@demo.example`,
          passwordHash,
          firstName,
          lastName: 'Demo',
          resellerId: ids.get(reseller)!,
          accountId: account ? accountIds.get(account)! : null,
          roleId,
          preferences: null,
        })
        .execute();
      users.push({ username, password, role: `${role} of ${account ?? reseller}` });
    }
    await seedZones(trx as unknown as Kysely<Database>, ids);
    await seedRoamingProfiles(trx as unknown as Kysely<Database>, ids);
    await seedPrepaid(trx as unknown as Kysely<Database>, ids, sales ? demoOpenedAt() : undefined);
    await seedOrders(trx as unknown as Kysely<Database>, ids);
  });
  await seedSubscribers(db, opts.subscribers ?? 0);
  await seedInventory(db);
  await seedUsage(db);
  if (sales) await seedSales(db);
  if (opts.networkEvents ?? true) await seedNetworkEvents(db);
  return users;
}

const DEMO_ZONES: { table: 'locationZone' | 'destinationZone'; name: string; reseller: string; countries: string[]; maxVoipCost?: string }[] = [
  {
    table: 'locationZone',
    name: 'Europe',
    reseller: 'Northwind Mobile',
    countries: ['AT', 'BE', 'CH', 'DE', 'DK', 'ES', 'FI', 'FR', 'GB', 'IE', 'IT', 'NL', 'NO', 'PL', 'PT', 'SE'],
  },
  { table: 'locationZone', name: 'Nordics', reseller: 'Northwind IoT', countries: ['DK', 'FI', 'IS', 'NO', 'SE'] },
  { table: 'locationZone', name: 'North America', reseller: 'Blue Sky Telecom', countries: ['CA', 'MX', 'US'] },
  { table: 'locationZone', name: 'Asia Pacific', reseller: 'Blue Sky Telecom', countries: ['AU', 'CN', 'JP', 'KR', 'NZ', 'SG'] },
  {
    table: 'destinationZone',
    name: 'EU calls',
    reseller: 'Northwind Mobile',
    countries: ['AT', 'BE', 'DE', 'ES', 'FR', 'IT', 'NL', 'PT'],
    maxVoipCost: '0.0450',
  },
  {
    table: 'destinationZone',
    name: 'Worldwide calls',
    reseller: 'Blue Sky Telecom',
    countries: ['AU', 'BR', 'CA', 'CN', 'DE', 'GB', 'IN', 'JP', 'US'],
    maxVoipCost: '0.1200',
  },
];

async function seedZones(trx: Kysely<Database>, resellerIds: Map<string, number>) {
  for (const z of DEMO_ZONES) {
    await trx
      .insertInto(z.table)
      .values({
        name: z.name,
        resellerId: resellerIds.get(z.reseller)!,
        countries: JSON.stringify(z.countries),
        countryCount: z.countries.length,
        ...(z.maxVoipCost ? { maxVoipCost: z.maxVoipCost } : {}),
      })
      .execute();
  }
}

/** Rates in USD: MO and MT call per minute, MO and MT SMS per message, data per MB. */
const DEMO_RATES: Record<string, [string, string, string, string, string]> = {
  DE: ['0.0500', '0.0100', '0.0200', '0.0000', '0.0125'],
  FR: ['0.0550', '0.0100', '0.0200', '0.0000', '0.0130'],
  ES: ['0.0600', '0.0120', '0.0250', '0.0000', '0.0140'],
  GB: ['0.0700', '0.0150', '0.0300', '0.0000', '0.0150'],
  US: ['0.0900', '0.0200', '0.0400', '0.0000', '0.0200'],
  JP: ['0.1500', '0.0500', '0.0600', '0.0000', '0.0350'],
};

const DEMO_PROFILES = [
  {
    name: 'Europe IoT',
    reference: 'NW-EU-IOT',
    slots: 1,
    reseller: 'Northwind Mobile',
    approved: true,
    countries: ['DE', 'ES', 'FR', 'GB'],
    sponsors: ['Orbit Home NL'],
  },
  {
    name: 'Global dual IMSI',
    reference: 'NW-GLOBAL2',
    slots: 2,
    reseller: 'Northwind Mobile',
    approved: false,
    countries: ['DE', 'GB', 'JP', 'US'],
    sponsors: ['Orbit Home NL', 'Orbit Home UK'],
  },
  { name: 'Americas', reference: 'BS-AMERICAS', slots: 1, reseller: 'Blue Sky Telecom', approved: true, countries: ['US'], sponsors: ['Orbit Home US'] },
];

async function seedRoamingProfiles(trx: Kysely<Database>, resellerIds: Map<string, number>) {
  for (const p of DEMO_PROFILES) {
    const { id } = await trx
      .insertInto('roamingProfile')
      .values({
        name: p.name,
        reference: p.reference,
        slots: p.slots,
        resellerId: resellerIds.get(p.reseller)!,
        reviewState: p.approved ? 'approved' : 'pending',
        reviewedAt: p.approved ? new Date() : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sponsors = await trx.selectFrom('sponsor').select('id').where('name', 'in', p.sponsors).execute();
    await trx
      .insertInto('roamingProfileSponsor')
      .values(sponsors.map((s) => ({ roamingProfileId: id, sponsorId: s.id })))
      .execute();
    await trx
      .insertInto('roamingProfileRate')
      .values(
        p.countries.map((country) => {
          const [moCall, mtCall, moSms, mtSms, data] = DEMO_RATES[country];
          return { roamingProfileId: id, country, moCall, mtCall, moSms, mtSms, data };
        }),
      )
      .execute();
  }
}
