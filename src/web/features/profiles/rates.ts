/**
 * A roaming profile's price table as the editor holds it: rates as the text typed, so a cell keeps what the user
 * wrote until it is valid, and the server gets exact decimals.
 */
export const RATE_FIELDS = ['moCall', 'mtCall', 'moSms', 'mtSms', 'data'] as const;
export type RateField = (typeof RATE_FIELDS)[number];

export type Rate = { country: string } & Record<RateField, number>;
export type DraftRate = { country: string } & Record<RateField, string>;

/** The server's rule: 0 or more, below 10^8, at most 4 decimals ("exact to 4 decimals"). */
const RATE_TEXT = /^\d{1,8}(\.\d{1,4})?$/;

export function isRateText(text: string): boolean {
  return RATE_TEXT.test(text.trim());
}

export function toDraft(rates: readonly Rate[]): DraftRate[] {
  return rates.map((r) => ({ country: r.country, ...Object.fromEntries(RATE_FIELDS.map((f) => [f, String(r[f] ?? 0)])) }) as DraftRate);
}

/** Every cell that breaks the rule, as `country/field`. */
export function invalidCells(draft: readonly DraftRate[]): string[] {
  return draft.flatMap((r) => RATE_FIELDS.filter((f) => !isRateText(r[f])).map((f) => `${r.country}/${f}`));
}

/** The rates to send; only called on a draft without invalid cells. Four decimals read back exactly as numbers. */
export function fromDraft(draft: readonly DraftRate[]): Rate[] {
  return draft.map((r) => ({ country: r.country, ...Object.fromEntries(RATE_FIELDS.map((f) => [f, Number(r[f].trim())])) }) as Rate);
}

export function sameRates(a: readonly DraftRate[], b: readonly DraftRate[]): boolean {
  return a.length === b.length && a.every((r, i) => r.country === b[i].country && RATE_FIELDS.every((f) => r[f].trim() === b[i][f].trim()));
}
