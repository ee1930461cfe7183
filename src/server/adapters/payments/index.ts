/**
 * The outside services payments go through, each behind an interface with a working local default:
 * - a card processor (the sandbox of sandboxCard.ts unless another is given) that tokenises a card and charges a token;
 * - Stripe (stripe.ts), only when STRIPE_SECRET_KEY is set: a charge of a Stripe payment method (from Stripe.js);
 * - BitPay (bitpay.ts): invoices for crypto payments; the sandbox confirms them after BITPAY_SANDBOX_CONFIRM_SECONDS.
 */
import { createSandboxBitPay } from './bitpay';
import { createSandboxCardProcessor } from './sandboxCard';
import { createStripeProcessor } from './stripe';

/** A card as the payer types it; it goes to the processor and is never stored. */
export interface CardDetails {
  number: string;
  holderName: string;
  expiryMonth: number;
  expiryYear: number;
  cvv?: string;
}

/** What the portal keeps of a card: the processor's token and what identifies the card to its owner. */
export interface CardToken {
  token: string;
  last4: string;
  brand: string;
}

export interface Charge {
  /** A token of `tokenise` (or a Stripe payment method id). */
  source: string;
  /** In cents (what the payer pays, fee included). */
  amountCents: number;
  currency: string;
  description: string;
  /** The same key charges once, however often it is sent. */
  idempotencyKey: string;
}

export type ChargeResult =
  | { outcome: 'succeeded'; confirmationCode: string; processorRef: string }
  /** The card was refused (insufficient funds, a stolen card, a failed check). */
  | { outcome: 'declined'; processorRef?: string; reason: string }
  /** The processor could not answer or failed: nothing was charged. */
  | { outcome: 'failed'; reason: string };

export interface CardProcessor {
  readonly name: string;
  tokenise(card: CardDetails): Promise<CardToken>;
  charge(charge: Charge): Promise<ChargeResult>;
}

export type InvoiceStatus = 'new' | 'paid' | 'confirmed' | 'complete' | 'expired' | 'invalid';

export interface Invoice {
  id: string;
  status: InvoiceStatus;
  /** Where the payer pays the invoice. */
  url: string;
}

export interface CryptoGateway {
  readonly name: string;
  createInvoice(input: { amount: string; currency: string; orderId: string; description: string }): Promise<Invoice>;
  getInvoice(id: string): Promise<Invoice>;
}

export interface PaymentSettings {
  /** A card processor to use instead of the sandbox. */
  cardProcessor?: CardProcessor;
  /** Stripe's secret key (STRIPE_SECRET_KEY); the STRIPE method is offered only with it. */
  stripeSecretKey?: string;
  /** Where the Stripe client connects (tests point it at a local server). */
  stripeHost?: string;
  stripePort?: number;
  stripeProtocol?: 'http' | 'https';
  /** A crypto gateway to use instead of the sandbox. */
  cryptoGateway?: CryptoGateway;
  /** Seconds after which a sandbox invoice confirms (BITPAY_SANDBOX_CONFIRM_SECONDS, default 30). */
  bitPaySandboxConfirmSeconds?: number;
  /** How often the server credits confirmed crypto invoices, in milliseconds (default 15 s; 0: no sweep). */
  sweepMs?: number;
  /** A card charge still open this many seconds after it was recorded is driven again by the sweep (default 120). */
  staleChargeSeconds?: number;
}

export interface PaymentAdapters {
  card: CardProcessor;
  stripe?: CardProcessor;
  crypto: CryptoGateway;
}

export function createPaymentAdapters(settings: PaymentSettings = {}): PaymentAdapters {
  return {
    card: settings.cardProcessor ?? createSandboxCardProcessor(),
    stripe: settings.stripeSecretKey
      ? createStripeProcessor(settings.stripeSecretKey, { host: settings.stripeHost, port: settings.stripePort, protocol: settings.stripeProtocol })
      : undefined,
    crypto: settings.cryptoGateway ?? createSandboxBitPay(settings.bitPaySandboxConfirmSeconds ?? 30),
  };
}

/** The brand of a card number by its leading digits. */
export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'VISA';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'MASTERCARD';
  if (/^3[47]/.test(number)) return 'AMEX';
  if (/^(6011|65|64[4-9])/.test(number)) return 'DISCOVER';
  if (/^35/.test(number)) return 'JCB';
  if (/^3(0[0-5]|[68])/.test(number)) return 'DINERS';
  return 'CARD';
}
