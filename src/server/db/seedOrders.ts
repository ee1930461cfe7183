import { sql, type Kysely } from 'kysely';
import type { Database } from './types';

/** The demo's SIM providers, provider profiles (one a pending request) and the ranges allocation takes from. */
export async function seedOrders(db: Kysely<Database>, resellerIds: Map<string, number>) {
  const providers = await db
    .insertInto('simProvider')
    .values([
      { name: 'Orbit Cards', vendor: 'simulator', simTypes: ['physical', 'esim'], description: 'Plastic cards and MFF2 chips, personalised in the EU' },
      { name: 'Helix eSIM', vendor: 'simulator', simTypes: ['esim'], description: 'eSIM profiles (SM-DP+)' },
    ])
    .returning(['id', 'name'])
    .execute();
  const provider = (name: string) => providers.find((p) => p.name === name)!.id;
  const sponsors = await db.selectFrom('sponsor').select(['id', 'name', 'imsiPrefix']).execute();
  const sponsor = (name: string) => sponsors.find((s) => s.name === name)!;
  const nl = sponsor('Orbit Home NL');
  const uk = sponsor('Orbit Home UK');
  const us = sponsor('Orbit Home US');
  await db
    .insertInto('providerProfile')
    .values([
      { providerId: provider('Orbit Cards'), name: 'NL single IMSI', sponsorId: nl.id, slotCount: 1, simType: 'physical', imsiPrefix: nl.imsiPrefix },
      { providerId: provider('Orbit Cards'), name: 'NL + UK dual IMSI', sponsorId: nl.id, slotCount: 2, simType: 'physical', imsiPrefix: nl.imsiPrefix },
      { providerId: provider('Helix eSIM'), name: 'US eSIM', sponsorId: us.id, slotCount: 1, simType: 'esim', imsiPrefix: us.imsiPrefix },
      {
        providerId: provider('Orbit Cards'),
        name: 'Northwind UK fleet',
        sponsorId: uk.id,
        slotCount: 1,
        simType: 'physical',
        imsiPrefix: uk.imsiPrefix,
        resellerId: resellerIds.get('Northwind Mobile')!,
        status: 'pending',
        comment: 'UK IMSIs for a fleet customer',
      },
    ])
    .execute();
  // IMSI ranges of a million per sponsor, an ICCID range per provider, MSISDNs for the Dutch sponsor.
  const imsi = (prefix: string) => prefix.padEnd(9, '5').padEnd(15, '0');
  const ranges: { kind: string; sponsorId: number | null; providerId: number | null; first: string; last: string }[] = [nl, uk, us].map((s) => {
    const first = imsi(s.imsiPrefix);
    return { kind: 'imsi', sponsorId: s.id, providerId: null, first, last: String(BigInt(first) + 999_999n) };
  });
  ranges.push(
    { kind: 'iccid', sponsorId: null, providerId: provider('Orbit Cards'), first: '893112345600000000', last: '893112345600999999' },
    { kind: 'iccid', sponsorId: null, providerId: provider('Helix eSIM'), first: '894400000000000000', last: '894400000000999999' },
    { kind: 'msisdn', sponsorId: nl.id, providerId: null, first: '3197010000000', last: '3197010999999' },
  );
  await db
    .insertInto('simResourceRange')
    .values(
      ranges.map((r) => ({
        kind: r.kind,
        sponsorId: r.sponsorId,
        providerId: r.providerId,
        firstValue: sql<number>`${r.first}::bigint`,
        lastValue: sql<number>`${r.last}::bigint`,
        nextValue: sql<number>`${r.first}::bigint`,
      })),
    )
    .execute();
}
