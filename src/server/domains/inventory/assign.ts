/**
 * Assigning a range of SIM cards from inventory to an account: every card of the range becomes a subscriber of
 * the account in one statement (an UPDATE of the cards feeding an INSERT … SELECT of the subscribers and one of
 * their audit entries), inside one transaction, so a range is assigned whole or not at all. What the statement's rows
 * refer to (the subscribers' account, reseller and card, the audit entries' subscriber) is checked once for the
 * statement, one join each, instead of once per row (migration 0168).
 *
 * A subscriber takes its card's network resources: the IMSI and MSISDN an order's allocation gave the card and its
 * delivery kept with it (migration 0174). A card that carries no IMSI (a batch added by hand) gets one of the
 * inventory's home network from `subscriber_imsi_seq`; a card without an MSISDN leaves the subscriber without one.
 */
import { sql, type Kysely } from 'kysely';
import { isValidIccid } from '@shared/iccid';
import { MAX_ASSIGN_RANGE } from '@shared/inventory';
import type { Database } from '../../db/types';
import { conflict, fieldError, invalid, notFound } from '../../http/errors';
import type { Principal } from '../../http/principal';
import { subtreePattern } from '../../http/tenancy';
import { pgCode } from '../subscribers/context';

/** The home network of subscribers created from cards that carry no IMSI; their MSIN comes from `subscriber_imsi_seq`. */
export const INVENTORY_HOME_PLMN = '90128';

export interface AssignRangeInput {
  accountId: number;
  iccidStart: string;
  iccidEnd: string;
  quantity: number;
}

export interface AssignRangeResult {
  accountId: number;
  assigned: number;
  firstSubscriberId: number | null;
  lastSubscriberId: number | null;
}

/** The caller's cards as a condition on `sim_card c` joined to `reseller sr` (its owner): the caller's subtree. */
const cardsOf = (principal: Principal) => (principal.isAdmin ? sql`true` : sql`sr.path like ${subtreePattern(principal)}`);
/** The same on `sim_card c` alone: its owner among the subtree's resellers, listed once for the statement. */
const ownCards = (principal: Principal) =>
  principal.isAdmin ? sql`true` : sql`c.reseller_id = any(array(select id from reseller where path like ${subtreePattern(principal)}))`;

/**
 * Checks the range, then assigns it. Errors: 400 for ICCIDs that are not ICCIDs, an end not after the start, a
 * range wider than MAX_ASSIGN_RANGE or a quantity other than the number of the caller's cards in the range; 404
 * for an account the caller does not see; 409 when a card of the range is no longer in inventory, belongs to
 * a reseller the account is not under, or carries an IMSI (field `imsi`) or MSISDN (field `msisdn`) a subscriber
 * already has.
 */
export async function assignRange(trx: Kysely<Database>, principal: Principal, input: AssignRangeInput): Promise<AssignRangeResult> {
  const errors = [];
  if (!isValidIccid(input.iccidStart)) errors.push(fieldError('iccidStart', 'format', 'validation.iccid.invalid'));
  if (!isValidIccid(input.iccidEnd)) errors.push(fieldError('iccidEnd', 'format', 'validation.iccid.invalid'));
  if (errors.length) throw invalid(errors);
  if (input.iccidStart.length !== input.iccidEnd.length || BigInt(input.iccidEnd) <= BigInt(input.iccidStart))
    throw invalid([fieldError('iccidEnd', 'order', 'inventory.assign.endAfterStart')]);
  const span = BigInt(input.iccidEnd.slice(0, -1)) - BigInt(input.iccidStart.slice(0, -1)) + 1n;
  if (span > BigInt(MAX_ASSIGN_RANGE)) throw invalid([fieldError('iccidEnd', 'range', 'inventory.assign.rangeTooLarge')]);

  let accounts = trx
    .selectFrom('account as a')
    .innerJoin('reseller as r', 'r.id', 'a.resellerId')
    .select(['a.accountId', 'a.resellerId', 'a.pricingPlanId', 'r.path'])
    .where('a.accountId', '=', input.accountId);
  if (!principal.isAdmin) {
    accounts = accounts.where('r.path', 'like', subtreePattern(principal));
    if (principal.accountId !== null) accounts = accounts.where('a.accountId', '=', principal.accountId);
  }
  const account = await accounts.executeTakeFirst();
  if (!account) throw notFound();

  const inRange = sql`c.iccid >= ${input.iccidStart} and c.iccid <= ${input.iccidEnd} and length(c.iccid) = ${input.iccidStart.length}`;
  const [counts] = (
    await sql<{ visible: number; free: number; foreign: number; imsis: number; msisdns: number }>`select count(*)::int as visible,
      count(*) filter (where c.status = 'inventory')::int as free,
      count(*) filter (where not starts_with(${account.path}, sr.path))::int as foreign,
      count(c.imsi)::int as imsis, count(c.msisdn)::int as msisdns
      from sim_card c join reseller sr on sr.id = c.reseller_id where ${inRange} and ${cardsOf(principal)}`.execute(trx)
  ).rows;
  if (counts.visible !== input.quantity) throw invalid([fieldError('quantity', 'count', 'inventory.assign.quantityMismatch')]);
  if (counts.free !== counts.visible) throw conflict([fieldError('iccidStart', 'available', 'inventory.assign.simsTaken')]);
  if (counts.foreign) throw conflict([fieldError('accountId', 'tenant', 'inventory.assign.otherReseller')]);
  // The cards' own IMSIs and MSISDNs, when they carry any, must be no subscriber's yet (cards without them cost
  // nothing here).
  if (counts.imsis || counts.msisdns) {
    const [used] = (
      await sql<{ imsi: boolean; msisdn: boolean }>`select
        exists (select 1 from sim_card c join subscriber s on s.imsi = c.imsi where ${inRange} and c.imsi is not null) as imsi,
        exists (select 1 from sim_card c join subscriber_msisdn m on m.msisdn = c.msisdn where ${inRange} and c.msisdn is not null) as msisdn`.execute(trx)
    ).rows;
    if (used.imsi) throw conflict([fieldError('imsi', 'unique', 'inventory.assign.imsiInUse')]);
    if (used.msisdn) throw conflict([fieldError('msisdn', 'unique', 'validation.msisdn.inUse')]);
  }

  // The cards are sorted by ICCID before their subscribers are written, so that the new rows and their index entries
  // land in order; a sort of 100,000 cards fits in memory with this much, instead of spilling to disk.
  await sql`set local work_mem = '32MB'`.execute(trx);
  // A card's own IMSI, else the next of the sequence (coalesce draws from it only for cards without one); its MSISDN,
  // when it has one, becomes the subscriber's default number and its row in subscriber_msisdn.
  let done;
  try {
    [done] = (
      await sql<{ n: number; first: number | null; last: number | null }>`with cards as (
          update sim_card c set status = 'active', status_date = now(), reseller_id = ${account.resellerId}
          where ${inRange} and c.status = 'inventory' and ${ownCards(principal)}
          returning c.iccid, c.imsi, c.msisdn
        ), subscribers as (
          insert into subscriber (status, imsi, iccid, msisdn, account_id, reseller_id, pricing_plan_id)
          select 'active', coalesce(cards.imsi, ${INVENTORY_HOME_PLMN} || lpad(nextval('subscriber_imsi_seq')::text, 10, '0')), cards.iccid,
            cards.msisdn, ${account.accountId}, ${account.resellerId}, ${account.pricingPlanId}
          from cards order by cards.iccid
          returning subscriber_id, iccid, imsi, msisdn
        ), numbers as (
          insert into subscriber_msisdn (msisdn, subscriber_id)
          select msisdn, subscriber_id from subscribers where msisdn is not null
          returning 1
        ), audit as (
          insert into subscriber_audit (subscriber_id, user_id, username, action, after)
          select subscriber_id, ${principal.userId}, ${principal.username}, 'assign-from-inventory',
            jsonb_build_object('iccid', iccid, 'imsi', imsi, 'msisdn', msisdn, 'accountId', ${account.accountId}::int, 'status', 'active')
          from subscribers
          returning 1
        )
        select (select count(*)::int from subscribers) as n, min(subscriber_id) as first, max(subscriber_id) as last from subscribers`.execute(trx)
    ).rows;
  } catch (e) {
    // A subscriber given the same IMSI or MSISDN by another transaction since the check.
    if (pgCode(e) === '23505') {
      const constraint = (e as { constraint?: string }).constraint ?? '';
      if (constraint.startsWith('subscriber_msisdn')) throw conflict([fieldError('msisdn', 'unique', 'validation.msisdn.inUse')]);
      if (constraint === 'subscriber_imsi_key') throw conflict([fieldError('imsi', 'unique', 'inventory.assign.imsiInUse')]);
      throw conflict([fieldError('iccidStart', 'available', 'inventory.assign.simsTaken')]);
    }
    throw e;
  }
  // Another assignment took a card between the count and the update: nothing of this one stays.
  if (done.n !== input.quantity) throw conflict([fieldError('iccidStart', 'available', 'inventory.assign.simsTaken')]);
  return { accountId: account.accountId, assigned: done.n, firstSubscriberId: done.first, lastSubscriberId: done.last };
}
