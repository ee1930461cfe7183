/**
 * The sandbox card processor, the default: no money moves. Its test cards (any future expiry, any holder):
 * - 4242 4242 4242 4242 is charged;
 * - 4000 0000 0000 0002 is declined (the portal's 'general payment failure');
 * - 4000 0000 0000 0119 makes the processor fail (nothing charged);
 * - any other number that passes the Luhn check is charged.
 * The token carries the card's test behaviour, not its number; a charge with the same idempotency key answers the
 * first charge's outcome.
 */
import { randomBytes } from 'node:crypto';
import { cardBrand, type CardProcessor, type ChargeResult } from '.';

export const SANDBOX_CARDS = { success: '4242424242424242', declined: '4000000000000002', error: '4000000000000119' } as const;

export function createSandboxCardProcessor(): CardProcessor {
  const charges = new Map<string, ChargeResult>();
  return {
    name: 'sandbox',
    async tokenise(card) {
      const behaviour = card.number === SANDBOX_CARDS.declined ? 'decline' : card.number === SANDBOX_CARDS.error ? 'error' : 'ok';
      return { token: `tok_sandbox_${behaviour}_${randomBytes(12).toString('hex')}`, last4: card.number.slice(-4), brand: cardBrand(card.number) };
    },
    async charge(charge) {
      const earlier = charges.get(charge.idempotencyKey);
      if (earlier) return earlier;
      const behaviour = /^tok_sandbox_(ok|decline|error)_/.exec(charge.source)?.[1];
      const ref = `ch_sandbox_${randomBytes(10).toString('hex')}`;
      const result: ChargeResult =
        behaviour === 'ok'
          ? { outcome: 'succeeded', confirmationCode: randomBytes(5).toString('hex').toUpperCase(), processorRef: ref }
          : behaviour === 'decline'
            ? { outcome: 'declined', processorRef: ref, reason: 'card_declined' }
            : behaviour === 'error'
              ? { outcome: 'failed', reason: 'processing_error' }
              : { outcome: 'declined', reason: 'unknown_token' };
      charges.set(charge.idempotencyKey, result);
      return result;
    },
  };
}
