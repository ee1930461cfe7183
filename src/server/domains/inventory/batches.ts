/**
 * Adding a batch of SIM cards to a reseller's inventory: one `sim_batch` row and its cards, whose ICCIDs are
 * consecutive 19-digit numbers (18 digits and a Luhn check digit), written by one INSERT … SELECT over
 * `generate_series` inside the caller's transaction.
 *
 * Without a first ICCID the batch takes the next free range of its service provider: the issuer prefix (first 7
 * digits) of the provider's latest 19-digit batch, or {@link DEFAULT_ICCID_PREFIX} for a provider without one, and
 * the serial one past the highest 19-digit ICCID under that prefix. Batches are serialised by a transaction-scoped
 * advisory lock, so two batches added at once never draw the same range.
 *
 * A batch made for an order carries the network resources its allocation gave: with a first IMSI (and a first
 * MSISDN), the n-th card gets the n-th IMSI (and MSISDN) of the range, as the vendor's keys file lists them; assigning
 * the card to an account makes them its subscriber's (see `assign.ts`). A batch added by hand carries none.
 */
import { sql, type Kysely } from 'kysely';
import { luhnDigit, isValidIccid } from '@shared/iccid';
import type { Database } from '../../db/types';
import { conflict, fieldError, invalid } from '../../http/errors';
import { pgCode } from '../subscribers/context';

/** Digits of an ICCID before its check digit. */
export const ICCID_BODY_LENGTH = 18;
/** The issuer prefix (89 telecom, country code 882 international, issuer 28) of a provider without batches yet. */
export const DEFAULT_ICCID_PREFIX = '8988228';
/** The most cards one batch adds. */
export const MAX_BATCH_QUANTITY = 200_000;
/** The SM-DP+ address of the activation codes of eSIMs added by a batch. */
export const SMDP_ADDRESS = 'smdp.portal.example';

export type SimType = 'physical' | 'esim';

export interface SimBatchInput {
  resellerId: number;
  name: string;
  /** The first ICCID (19 digits, Luhn); absent: the provider's next free range. */
  iccidStart?: string | null;
  quantity: number;
  simType: SimType;
  profileType?: string | null;
  /** Cost of one card, as a decimal string or number. */
  cost?: string | number | null;
  serviceProviderName?: string | null;
  /** The first card's IMSI (15 digits; the rest consecutive); absent: the cards carry none. */
  imsiStart?: string | null;
  /** The first card's MSISDN (8 to 15 digits; the rest consecutive, kept to its length); absent: none. */
  msisdnStart?: string | null;
  orderUuid?: string | null;
  userId: number | null;
}

export interface SimBatch {
  batchId: number;
  name: string;
  iccidStart: string;
  iccidEnd: string;
  quantity: number;
}

const BATCH_LOCK = 'sim_batch';
/** The number of the card of `generate_series`' `n` in a range that starts at `start` for the first card (`first`), kept to its length. */
const nth = (start: string, first: bigint) => sql`lpad((${start}::bigint + (n - ${first.toString()}::bigint))::text, ${start.length}, '0')`;

const withCheck = (body: string) => body + luhnDigit(body);
const bodyOf = (n: bigint) => n.toString().padStart(ICCID_BODY_LENGTH, '0');

/** The first ICCID body (18 digits) of the provider's next free range of `quantity` cards. */
async function nextFreeBody(trx: Kysely<Database>, provider: string | null, quantity: number): Promise<bigint> {
  const latest = await trx
    .selectFrom('simBatch')
    .select('iccidStart')
    .where(sql<boolean>`length(iccid_start) = ${ICCID_BODY_LENGTH + 1}`)
    .where(sql<boolean>`service_provider_name is not distinct from ${provider}`)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const prefix = latest ? latest.iccidStart.slice(0, DEFAULT_ICCID_PREFIX.length) : DEFAULT_ICCID_PREFIX;
  const upper = String(BigInt(prefix) + 1n);
  // The cards under the prefix: digits sort as text the same way in every collation, so this is a range scan.
  const { top } = await sql<{ top: string | null }>`select max(iccid) as top from sim_card
    where iccid >= ${prefix} and iccid < ${upper} and length(iccid) = ${ICCID_BODY_LENGTH + 1}`
    .execute(trx)
    .then((r) => r.rows[0]);
  const first = top ? BigInt(top.slice(0, ICCID_BODY_LENGTH)) + 1n : BigInt(prefix.padEnd(ICCID_BODY_LENGTH, '0')) + 1n;
  const last = first + BigInt(quantity) - 1n;
  if (!bodyOf(last).startsWith(prefix)) throw conflict([fieldError('iccidStart', 'available', 'inventory.noIccidRange')]);
  return first;
}

/**
 * Adds a batch of `quantity` SIM cards, status `inventory`, to the reseller's inventory inside `trx`. Refuses
 * (400) a first ICCID that is not 19 digits with its check digit, a first IMSI or MSISDN that is not one or whose
 * range runs past its length, or a quantity out of range, and (409) a batch name the reseller already uses or a
 * range holding an ICCID, IMSI or MSISDN a card already has.
 */
export async function addSimBatch(trx: Kysely<Database>, input: SimBatchInput): Promise<SimBatch> {
  const name = input.name.trim();
  if (!name) throw invalid([fieldError('name', 'required', 'validation.required')]);
  if (!Number.isInteger(input.quantity) || input.quantity < 1 || input.quantity > MAX_BATCH_QUANTITY)
    throw invalid([fieldError('quantity', 'range', 'inventory.quantityRange')]);
  if (input.iccidStart != null && !(input.iccidStart.length === ICCID_BODY_LENGTH + 1 && isValidIccid(input.iccidStart)))
    throw invalid([fieldError('iccidStart', 'format', 'inventory.iccidFormat')]);
  const imsiStart = input.imsiStart ?? null;
  const msisdnStart = input.msisdnStart ?? null;
  const fits = (start: string) => (BigInt(start) + BigInt(input.quantity - 1)).toString().length <= start.length;
  if (imsiStart !== null && !(/^\d{15}$/.test(imsiStart) && fits(imsiStart))) throw invalid([fieldError('imsiStart', 'format', 'validation.imsi.invalid')]);
  if (msisdnStart !== null && !(/^\d{8,15}$/.test(msisdnStart) && fits(msisdnStart)))
    throw invalid([fieldError('msisdnStart', 'format', 'validation.msisdn.invalid')]);

  await sql`select pg_advisory_xact_lock(hashtext(${BATCH_LOCK}))`.execute(trx);
  const taken = await trx
    .selectFrom('simBatch')
    .select('id')
    .where('resellerId', '=', input.resellerId)
    .where(sql<boolean>`lower(name) = lower(${name})`)
    .executeTakeFirst();
  if (taken) throw conflict([fieldError('name', 'unique', 'inventory.batchNameTaken')]);

  const provider = input.serviceProviderName?.trim() || null;
  const first = input.iccidStart != null ? BigInt(input.iccidStart.slice(0, ICCID_BODY_LENGTH)) : await nextFreeBody(trx, provider, input.quantity);
  const last = first + BigInt(input.quantity) - 1n;
  if (bodyOf(last).length > ICCID_BODY_LENGTH) throw invalid([fieldError('quantity', 'range', 'inventory.quantityRange')]);
  const iccidStart = withCheck(bodyOf(first));
  const iccidEnd = withCheck(bodyOf(last));

  const clash = await sql<{ iccid: string }>`select iccid from sim_card
    where iccid >= ${iccidStart} and iccid <= ${iccidEnd} and length(iccid) = ${ICCID_BODY_LENGTH + 1} limit 1`.execute(trx);
  if (clash.rows.length) throw conflict([fieldError('iccidStart', 'available', 'inventory.iccidRangeTaken')]);
  const imsiOf = imsiStart === null ? sql`null` : nth(imsiStart, first);
  const msisdnOf = msisdnStart === null ? sql`null` : nth(msisdnStart, first);

  const batch = await trx
    .insertInto('simBatch')
    .values({
      name,
      resellerId: input.resellerId,
      simType: input.simType,
      iccidStart,
      iccidEnd,
      quantity: input.quantity,
      profileType: input.profileType ?? null,
      cost: input.cost == null ? null : String(input.cost),
      serviceProviderName: provider,
      orderUuid: input.orderUuid ?? null,
      createdBy: input.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const activation = input.simType === 'esim' ? sql`${`LPA:1$${SMDP_ADDRESS}$B${batch.id}-`} || right(g.body, 11)` : sql`null`;
  try {
    await sql`insert into sim_card (iccid, sim_type, status, status_date, profile_type, batch, batch_id, cost, service_provider_name, activation_code, reseller_id, imsi, msisdn)
      select g.body || luhn_digit(g.body), ${input.simType}, 'inventory', now(), ${input.profileType ?? null}, ${name}, ${batch.id},
        ${input.cost == null ? null : String(input.cost)}::numeric, ${provider}, ${activation}, ${input.resellerId}, g.imsi, g.msisdn
      from (select lpad(n::text, ${ICCID_BODY_LENGTH}, '0') as body, ${imsiOf} as imsi, ${msisdnOf} as msisdn
        from generate_series(${first.toString()}::bigint, ${last.toString()}::bigint) as n) g`.execute(trx);
  } catch (e) {
    if (pgCode(e) === '23505') {
      const constraint = (e as { constraint?: string }).constraint;
      if (constraint === 'sim_card_imsi_key') throw conflict([fieldError('imsiStart', 'available', 'inventory.imsiRangeTaken')]);
      if (constraint === 'sim_card_msisdn_key') throw conflict([fieldError('msisdnStart', 'available', 'inventory.msisdnRangeTaken')]);
      throw conflict([fieldError('iccidStart', 'available', 'inventory.iccidRangeTaken')]);
    }
    throw e;
  }
  return { batchId: batch.id, name, iccidStart, iccidEnd, quantity: input.quantity };
}
