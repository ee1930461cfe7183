import { sql, type Insertable, type Kysely } from 'kysely';
import { luhnDigit } from '@shared/iccid';
import type { Database, SimCard, Subscriber } from './types';

/** The home network of the demo SIMs: MCC 901 (international), MNC 28; ICCIDs start 89 882 28. */
const HOME_PLMN = '90128';
const ICCID_PREFIX = '8988228';
const MSISDN_PREFIX = '88228';

/** Sponsor networks lending IMSIs to multi-IMSI SIMs, and the networks subscribers were last seen on. */
const SPONSORS = [
  { plmn: '20404', name: 'Vodafone NL' },
  { plmn: '310260', name: 'T-Mobile US' },
  { plmn: '23415', name: 'Vodafone UK' },
];
const NETWORKS: [string, string][] = [
  ['NL', 'KPN'],
  ['NL', 'Vodafone NL'],
  ['DE', 'Telekom.de'],
  ['DE', 'Vodafone.de'],
  ['FR', 'Orange F'],
  ['ES', 'Movistar'],
  ['GB', 'EE'],
  ['US', 'T-Mobile US'],
  ['US', 'AT&T'],
  ['CH', 'Swisscom'],
  ['NO', 'Telenor'],
  ['IL', 'Partner'],
  ['JP', 'NTT DOCOMO'],
  ['CA', 'Rogers'],
  ['IE', 'Three IE'],
  ['CN', 'China Mobile'],
];
const DEVICES: [string, string, string][] = [
  ['Router', 'Teltonika RUT240', '86423904'],
  ['Tracker', 'Queclink GV300', '86359803'],
  ['Meter', 'Landis+Gyr E360', '35332508'],
  ['Smartphone', 'Apple iPhone 14', '35226611'],
  ['Module', 'Quectel EG25-G', '86762504'],
  ['Wearable', 'Samsung Galaxy Watch5', '35384011'],
];
const GROUPS = ['Fleet', 'Warehouse', 'Field sensors', 'Sales', 'Backup links', null];
const APNS = ['iot.portal', 'internet', 'm2m.secure'];
const QOS = ['BLOCK', '64kbps', '128kbps', '256kbps', '1Mbps'];
const MB = 1024 * 1024;
const LIMITS = [50 * MB, 100 * MB, 250 * MB, 500 * MB, 1024 * MB];

/** A small deterministic generator, so demo data (and the tests that read it) are the same on every run. */
export function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const withLuhn = (digits: string) => digits + luhnDigit(digits);

/** What numbering and spreading the demo subscribers needs from the database. */
export interface SubscriberSeedContext {
  accounts: { accountId: number; resellerId: number }[];
  sponsors: { id: number | null; name: string; prefix: string }[];
  /** A pricing plan and a roaming profile per reseller, when their seeds ran. */
  plans: Map<number, number>;
  profiles: Map<number, number>;
}

/** One demo subscriber: its SIM card, itself, its MSISDNs and (on multi-IMSI SIMs) its sponsor IMSIs. */
export interface SubscriberSeedRow {
  sim: Insertable<SimCard>;
  subscriber: Insertable<Subscriber>;
  msisdns: string[];
  sponsorImsis: { imsi: string; sponsorId: number | null; sponsorName: string; pending: boolean }[];
}

export async function subscriberSeedContext(db: Kysely<Database>): Promise<SubscriberSeedContext> {
  const accounts = (
    await db.selectFrom('account').select(['accountId', 'resellerId']).where('inventoryAccount', '=', false).orderBy('accountId').execute()
  ).map((a) => ({ accountId: Number(a.accountId), resellerId: Number(a.resellerId) }));
  // Sponsors, plans and profiles of the demo, when their seeds ran first; the constants otherwise.
  const sponsorRows = await db
    .selectFrom('sponsor')
    .select(['id', 'name', 'imsiPrefix'])
    .orderBy('id')
    .execute()
    .catch(() => []);
  const sponsors = sponsorRows.length
    ? sponsorRows.map((r) => ({ id: Number(r.id), name: String(r.name), prefix: String(r.imsiPrefix) }))
    : SPONSORS.map((r) => ({ id: null, name: r.name, prefix: r.plmn }));
  const firstOf = async (table: 'pricingPlan' | 'roamingProfile') =>
    new Map(
      (
        await db
          .selectFrom(table)
          .select(['id', 'resellerId'])
          .orderBy('id', 'desc')
          .execute()
          .catch(() => [])
      ).map((r) => [Number(r.resellerId), Number(r.id)] as const),
    );
  return { accounts, sponsors, plans: await firstOf('pricingPlan'), profiles: await firstOf('roamingProfile') };
}

/**
 * The first `count` demo subscribers, in order and the same on every run. Numbering: IMSI
 * 90128 + 10 digits, ICCID 8988228 + 12 digits + check digit, MSISDN 88228 + 8 digits (a second one on every
 * seventh subscriber), IMEI TAC + serial + check digit.
 */
export function* subscriberSeedRows(ctx: SubscriberSeedContext, count: number, now = Date.now()): Generator<SubscriberSeedRow> {
  const { accounts, sponsors: sponsorList, plans, profiles } = ctx;
  const rnd = random(20260);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
  for (let i = 0; i < count; i++) {
    const account = accounts[i % accounts.length];
    const iccid = withLuhn(`${ICCID_PREFIX}${pad(100000 + i, 12)}`);
    const esim = i % 5 === 0;
    const sim = {
      iccid,
      simType: esim ? 'esim' : 'physical',
      status: 'active',
      statusDate: new Date(now - (400 - (i % 365)) * 86_400_000).toISOString(),
      profileType: esim ? 'consumer' : 'M2M',
      batch: `B${2025}-${pad(Math.floor(i / 5000) + 1, 3)}`,
      cost: esim ? '1.20' : '2.50',
      serviceProviderName: 'Connectivity Provider',
      activationCode: esim ? `LPA:1$smdp.portal.example$${pad(i, 8)}-${iccid.slice(-6)}` : null,
      resellerId: account.resellerId,
    };
    const [country, network] = pick(NETWORKS);
    const [deviceType, device, tac] = pick(DEVICES);
    const limit = rnd() < 0.8 ? pick(LIMITS) : null;
    const usage = limit ? Math.floor(limit * rnd() * 1.15) : Math.floor(rnd() * 300 * MB);
    const msisdn = `${MSISDN_PREFIX}${pad(10000000 + i, 8)}`;
    const msisdns = i % 7 === 3 ? [msisdn, `${MSISDN_PREFIX}${pad(60000000 + i, 8)}`] : [msisdn];
    const sponsorImsis: SubscriberSeedRow['sponsorImsis'] = [];
    if (i % 3 === 0) {
      const sponsorCount = i % 2 === 0 ? 2 : 1;
      for (let s = 0; s < sponsorCount; s++) {
        const sponsor = sponsorList[(i + s) % sponsorList.length];
        sponsorImsis.push({
          imsi: `${sponsor.prefix}${pad(i, 15 - sponsor.prefix.length)}`,
          sponsorId: sponsor.id,
          sponsorName: sponsor.name,
          pending: i % 97 === 0,
        });
      }
    }
    const subscriber = {
      name: `${deviceType} ${pad(i + 1, 5)}`,
      status: rnd() < 0.9 ? 'active' : 'suspended',
      imsi: `${HOME_PLMN}${pad(i + 1, 10)}`,
      iccid,
      msisdn,
      deviceType,
      device,
      imei: withLuhn(`${tac}${pad(Math.floor(rnd() * 1e6), 6)}`),
      country,
      network,
      lastLocationAt: new Date(now - Math.floor(rnd() * 7 * 86_400_000)).toISOString(),
      balance: (rnd() * 200).toFixed(2),
      accountId: account.accountId,
      resellerId: account.resellerId,
      groupName: pick(GROUPS),
      apn: pick(APNS),
      dailyLimitBytes: limit,
      qosThrottling: limit ? pick(QOS) : null,
      usageTodayBytes: usage,
      migrationStatus: null,
      pricingPlanId: plans.get(account.resellerId) ?? null,
      roamingProfileId: profiles.get(account.resellerId) ?? null,
    };
    yield { sim, subscriber, msisdns, sponsorImsis };
  }
}

/** Demo subscribers with their SIM cards, MSISDNs and sponsor IMSIs, spread over every non-inventory account, inserted in batches. */
export async function seedSubscribers(db: Kysely<Database>, count: number, batchSize = 1000): Promise<number> {
  if (count <= 0 || (await db.selectFrom('subscriber').select('subscriberId').limit(1).executeTakeFirst())) return 0;
  const ctx = await subscriberSeedContext(db);
  if (!ctx.accounts.length) return 0;
  const generated = subscriberSeedRows(ctx, count);
  let inserted = 0;
  for (let start = 0; start < count; start += batchSize) {
    const rows: SubscriberSeedRow[] = [];
    while (rows.length < batchSize) {
      const next = generated.next();
      if (next.done) break;
      rows.push(next.value);
    }
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('simCard')
        .values(rows.map((r) => r.sim))
        .execute();
      const ids = await trx
        .insertInto('subscriber')
        .values(rows.map((r) => r.subscriber))
        .returning(['subscriberId', 'iccid'])
        .execute();
      const idOf = new Map(ids.map((r) => [r.iccid as string, Number(r.subscriberId)]));
      const owned = rows.map((r) => ({ row: r, subscriberId: idOf.get(String(r.sim.iccid))! }));
      await trx
        .insertInto('subscriberMsisdn')
        .values(owned.flatMap(({ row, subscriberId }) => row.msisdns.map((msisdn) => ({ msisdn, subscriberId }))))
        .execute();
      const sponsorImsis = owned.flatMap(({ row, subscriberId }) => row.sponsorImsis.map((s) => ({ ...s, subscriberId })));
      if (sponsorImsis.length) await trx.insertInto('sponsorImsi').values(sponsorImsis).execute();
    });
    inserted += rows.length;
  }
  // Fresh statistics, so the planner uses the indexes on the tables just filled.
  await sql`analyze subscriber`.execute(db);
  return inserted;
}
