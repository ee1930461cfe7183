/**
 * Stripe, through its official client: a payment is a PaymentIntent confirmed at once with a payment method the
 * browser made with Stripe.js (`pm_…`), so card numbers never reach the portal. Stripe's own idempotency key is the
 * payment's, so a retried charge is charged once. A card error (declined, expired, failed check) is a decline;
 * anything else (network, Stripe down, a key refused) is a failure and charges nothing.
 */
import Stripe from 'stripe';
import type { CardProcessor, ChargeResult } from '.';

export interface StripeConnection {
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

export function createStripeProcessor(secretKey: string, connection: StripeConnection = {}): CardProcessor {
  const client = new Stripe(secretKey, {
    maxNetworkRetries: 1,
    timeout: 30_000,
    telemetry: false,
    ...(connection.host ? { host: connection.host } : {}),
    ...(connection.port ? { port: connection.port } : {}),
    ...(connection.protocol ? { protocol: connection.protocol } : {}),
  });
  return {
    name: 'stripe',
    async tokenise() {
      // Cards for Stripe are made in the browser (Stripe.js); the server never sees their numbers.
      throw new Error('Stripe cards are tokenised by Stripe.js in the browser');
    },
    async charge(charge): Promise<ChargeResult> {
      try {
        const intent = await client.paymentIntents.create(
          {
            amount: charge.amountCents,
            currency: charge.currency.toLowerCase(),
            payment_method: charge.source,
            description: charge.description,
            confirm: true,
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          },
          { idempotencyKey: charge.idempotencyKey },
        );
        if (intent.status === 'succeeded') {
          const latest = typeof intent.latest_charge === 'string' ? intent.latest_charge : (intent.latest_charge?.id ?? intent.id);
          return { outcome: 'succeeded', confirmationCode: latest, processorRef: intent.id };
        }
        return { outcome: 'declined', processorRef: intent.id, reason: intent.status };
      } catch (e) {
        if (e instanceof Stripe.errors.StripeCardError) return { outcome: 'declined', reason: e.decline_code ?? e.code ?? 'card_declined' };
        return { outcome: 'failed', reason: e instanceof Error ? e.message : String(e) };
      }
    },
  };
}
