/**
 * A range of subscribers as the user types it: the checks the server makes too (digits of the range type's
 * length), the screen's own rule that the end lies after the start, and the number of SIMs the range spans.
 */

export const RANGE_TYPES = ['SUBSCRIBER_ID', 'ICCID', 'IMSI'] as const;
export type RangeType = (typeof RANGE_TYPES)[number];

/** Subscribers one range change may cover (the server's limit). */
export const RANGE_MAX = 1000;

const PATTERN: Record<RangeType, RegExp> = { SUBSCRIBER_ID: /^[1-9]\d{0,8}$/, ICCID: /^\d{18,22}$/, IMSI: /^\d{15}$/ };

export type RangeField = 'rangeStart' | 'rangeEnd';

/** What is wrong with each field, as a message id (its text names the field through `{field}`). */
export type RangeProblems = Partial<Record<RangeField, string>>;

/**
 * The number a range position stands for. An ICCID's last digit is its check digit, so consecutive SIMs differ
 * in the digits before it.
 */
function position(type: RangeType, value: string): bigint {
  return BigInt(type === 'ICCID' ? value.slice(0, -1) : value);
}

export function rangeProblems(type: RangeType, start: string, end: string): RangeProblems {
  const problems: RangeProblems = {};
  for (const [field, value] of [
    ['rangeStart', start.trim()],
    ['rangeEnd', end.trim()],
  ] as const) {
    if (!value) problems[field] = 'assign.range.required';
    else if (!PATTERN[type].test(value)) problems[field] = `assign.range.format.${type}`;
  }
  if (problems.rangeStart || problems.rangeEnd) return problems;
  if (type !== 'SUBSCRIBER_ID' && start.trim().length !== end.trim().length) return { rangeEnd: 'assign.range.sameLength' };
  if (position(type, end.trim()) <= position(type, start.trim())) return { rangeEnd: 'assign.range.order' };
  return problems;
}

/** The number of SIMs from start to end, both included; undefined while the range is not valid. */
export function rangeQuantity(type: RangeType, start: string, end: string): bigint | undefined {
  const problems = rangeProblems(type, start, end);
  if (problems.rangeStart || problems.rangeEnd) return undefined;
  return position(type, end.trim()) - position(type, start.trim()) + 1n;
}

/** The server names range fields `range.rangeStart` (or `rangeStart` in the migration call). */
export function rangeFieldOf(serverField: string): RangeField | undefined {
  const name = serverField.replace(/^range\./, '');
  return name === 'rangeStart' || name === 'rangeEnd' ? name : undefined;
}
