import { luhnDigit } from '@shared/iccid';

/** The ICCID `count - 1` cards after `start` (consecutive numbers before the check digit), or undefined when `start` is no ICCID. */
export function iccidAfter(start: string, count: number): string | undefined {
  if (!/^\d{18,22}$/.test(start) || !Number.isInteger(count) || count < 1) return undefined;
  const body = (BigInt(start.slice(0, -1)) + BigInt(count - 1)).toString().padStart(start.length - 1, '0');
  if (body.length !== start.length - 1) return undefined;
  return body + luhnDigit(body);
}
