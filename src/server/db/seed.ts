import type { Kysely } from 'kysely';
import { ADMIN_RESELLER_ID, PRIVILEGE_CATALOGUE, type PrivilegeItem } from '@shared/privileges';
import { generatePassword, hashPassword } from '../domains/auth/password';
import type { Database } from './types';

export interface SeedReport {
  adminPassword?: string;
  demoUsers: { username: string; password: string; role: string }[];
}

const allPrivileges = (except: string[] = []): PrivilegeItem[] =>
  PRIVILEGE_CATALOGUE.filter((p) => !except.includes(p.privilege)).map((p) => ({ ...p, subPrivileges: [...p.subPrivileges] }));

/** The provider itself (reseller -1), its administrator role and the admin user, on an empty database. */
export async function ensureAdmin(db: Kysely<Database>, password?: string): Promise<string | undefined> {
  if (await db.selectFrom('appUser').select('id').limit(1).executeTakeFirst()) return undefined;
  const chosen = password ?? generatePassword();
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('reseller').values({ id: ADMIN_RESELLER_ID, name: 'Connectivity Provider', parentId: null, path: `/${ADMIN_RESELLER_ID}/`, accentColorHex: null })
      .onConflict((oc) => oc.column('id').doNothing()).execute();
    const role = await trx.insertInto('role').values({ name: 'Administrator', resellerId: ADMIN_RESELLER_ID, privileges: JSON.stringify(allPrivileges()) })
      .returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('appUser').values({
      username: 'admin', email: null, passwordHash: await hashPassword(chosen), firstName: 'Administrator', lastName: null,
      resellerId: ADMIN_RESELLER_ID, accountId: null, roleId: role.id, preferences: null,
    }).execute();
  });
  return password ? undefined : chosen;
}

const DEMO_RESELLERS = [
  { name: 'Northwind Mobile', parent: null, accent: '#c99a2e' },
  { name: 'Northwind IoT', parent: 'Northwind Mobile', accent: null },
  { name: 'Blue Sky Telecom', parent: null, accent: '#2d72d2' },
];

const DEMO_ACCOUNTS: [string, string, string, string][] = [
  ['Harbor Logistics', 'Rotterdam', 'NL', 'Northwind Mobile'], ['Alpine Sensors', 'Zurich', 'CH', 'Northwind IoT'],
  ['Meridian Fleet', 'Hamburg', 'DE', 'Northwind Mobile'], ['Cedar Health', 'Toronto', 'CA', 'Blue Sky Telecom'],
  ['Lumen Metering', 'Lyon', 'FR', 'Northwind IoT'], ['Pacific Rail', 'Seattle', 'US', 'Blue Sky Telecom'],
  ['Orion Security', 'Madrid', 'ES', 'Northwind Mobile'], ['Tundra Freight', 'Oslo', 'NO', 'Northwind Mobile'],
  ['Kestrel Drones', 'Tel Aviv', 'IL', 'Blue Sky Telecom'], ['Sakura Vending', 'Osaka', 'JP', 'Blue Sky Telecom'],
  ['Atlas Agritech', 'Valencia', 'ES', 'Northwind IoT'], ['Baltic Ferries', 'Riga', 'LV', 'Northwind Mobile'],
  ['Quartz Payments', 'Dublin', 'IE', 'Blue Sky Telecom'], ['Sierra Telematics', 'Denver', 'US', 'Blue Sky Telecom'],
  ['Volga Energy', 'Kazan', 'RU', 'Northwind Mobile'], ['Delta Wearables', 'Shenzhen', 'CN', 'Northwind IoT'],
  ['Fjord Aquaculture', 'Bergen', 'NO', 'Northwind IoT'], ['Sunbelt Solar', 'Phoenix', 'US', 'Blue Sky Telecom'],
  ['Granite Construction IoT', 'Munich', 'DE', 'Northwind Mobile'], ['Coral Reef Tours', 'Eilat', 'IL', 'Blue Sky Telecom'],
  ['Nimbus Weather', 'Reykjavik', 'IS', 'Northwind IoT'], ['Andes Mining', 'Santiago', 'CL', 'Blue Sky Telecom'],
  ['Kiwi Cold Chain', 'Auckland', 'NZ', 'Northwind Mobile'], ['Danube Parcels', 'Vienna', 'AT', 'Northwind Mobile'],
];

/** Demo resellers with a sub-reseller, roles, users and accounts for the embedded database. */
export async function seedDemo(db: Kysely<Database>): Promise<SeedReport['demoUsers']> {
  if (await db.selectFrom('reseller').select('id').where('id', '<>', ADMIN_RESELLER_ID).limit(1).executeTakeFirst()) return [];
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const users: SeedReport['demoUsers'] = [];
  await db.transaction().execute(async (trx) => {
    const ids = new Map<string, number>();
    for (const r of DEMO_RESELLERS) {
      const parentId = r.parent ? ids.get(r.parent)! : ADMIN_RESELLER_ID;
      const parentPath = r.parent ? (await trx.selectFrom('reseller').select('path').where('id', '=', parentId).executeTakeFirstOrThrow()).path : `/${ADMIN_RESELLER_ID}/`;
      const { id } = await trx.insertInto('reseller').values({ name: r.name, parentId, path: '', accentColorHex: r.accent }).returning('id').executeTakeFirstOrThrow();
      await trx.updateTable('reseller').set({ path: `${parentPath}${id}/` }).where('id', '=', id).execute();
      ids.set(r.name, id);
    }
    let accountNo = 0;
    const accountIds = new Map<string, number>();
    for (const [name, city, country, reseller] of DEMO_ACCOUNTS) {
      accountNo += 1;
      const row = await trx.insertInto('account').values({
        name, city, country, address: `${10 + accountNo} Harbour Street`, email: `ops@${name.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
        usageCredit: (accountNo * 125.5).toFixed(2), resellerId: ids.get(reseller)!, inventoryAccount: false,
      }).returning('accountId').executeTakeFirstOrThrow();
      accountIds.set(name, Number(row.accountId));
    }
    for (const reseller of ['Northwind Mobile', 'Blue Sky Telecom']) {
      await trx.insertInto('account').values({ name: `${reseller} Inventory`, resellerId: ids.get(reseller)!, inventoryAccount: true, country: null }).execute();
    }
    const roleFor = async (resellerName: string, name: string, privileges: PrivilegeItem[]) =>
      (await trx.insertInto('role').values({ name, resellerId: ids.get(resellerName)!, privileges: JSON.stringify(privileges) }).returning('id').executeTakeFirstOrThrow()).id;
    const demoUsers: [string, string, string, string, string | null, PrivilegeItem[]][] = [
      ['northwind', 'Nora', 'Northwind Mobile', 'Reseller manager', null, allPrivileges(['Roles'])],
      ['northwind-iot', 'Ivan', 'Northwind IoT', 'Reseller manager', null, allPrivileges(['Roles'])],
      ['bluesky', 'Bella', 'Blue Sky Telecom', 'Reseller manager', null, allPrivileges()],
      ['harbor', 'Hugo', 'Northwind Mobile', 'Account user', 'Harbor Logistics', allPrivileges().filter((p) => ['Dashboard', 'Accounts', 'Subscribers'].includes(p.privilege))],
    ];
    for (const [username, firstName, reseller, role, account, privileges] of demoUsers) {
      const roleId = await roleFor(reseller, `${role}${account ? ` (${account})` : ''}`, privileges);
      await trx.insertInto('appUser').values({
        username, email: `${username}@demo.example`, passwordHash, firstName, lastName: 'Demo', resellerId: ids.get(reseller)!,
        accountId: account ? accountIds.get(account)! : null, roleId, preferences: null,
      }).execute();
      users.push({ username, password, role: `${role} of ${account ?? reseller}` });
    }
  });
  return users;
}
