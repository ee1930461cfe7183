/** Ranges of subscribers (by id, ICCID or IMSI) that a range change covers. */
import { sql, type Kysely } from 'kysely';
import type { FieldError } from '@shared/wire';
import { fieldError } from '../../../http/errors';
import type { Principal } from '../../../http/principal';
import { scopeToCaller, type Body } from '../context';
import type { Database } from '../../../db/types';

/** A range change covers at most this many subscribers (specification). */
export const RANGE_MAX = 1000;
export const RANGE_TYPES = ['SUBSCRIBER_ID', 'ICCID', 'IMSI'] as const;
export type RangeType = (typeof RANGE_TYPES)[number];
export interface Range {
  type: RangeType;
  start: string;
  end: string;
}

/** The ids of the caller's subscribers in a range, in order, at most `limit` (to tell "more than the maximum"). */
export function rangeIds(db: Kysely<Database>, principal: Principal, range: Range, limit: number, sourceRoamingProfileId?: number) {
  let q = db.selectFrom('subscriber as s').innerJoin('reseller as r', 'r.id', 's.resellerId').select('s.subscriberId');
  q = scopeToCaller(q, principal);
  if (range.type === 'SUBSCRIBER_ID') q = q.where('s.subscriberId', '>=', Number(range.start)).where('s.subscriberId', '<=', Number(range.end));
  else {
    const column = range.type === 'ICCID' ? 's.iccid' : 's.imsi';
    q = q
      .where(column, '>=', range.start)
      .where(column, '<=', range.end)
      .where(sql`length(${sql.ref(column)})`, '=', range.start.length);
  }
  if (sourceRoamingProfileId !== undefined) q = q.where('s.roamingProfileId', '=', sourceRoamingProfileId);
  return q
    .orderBy('s.subscriberId')
    .limit(limit)
    .execute()
    .then((rows) => rows.map((row) => Number(row.subscriberId)));
}

/** Checks `{ rangeStart, rangeEnd }` and the range type: numbers or digit strings of the type's length, start not after end. */
export function checkRange(range: unknown, rangeType: unknown, errors: FieldError[], prefix = 'range.'): Range | undefined {
  const type = (rangeType ?? 'SUBSCRIBER_ID') as RangeType;
  if (!RANGE_TYPES.includes(type)) {
    errors.push(fieldError('rangeType', 'enum', 'validation.rangeType.invalid'));
    return undefined;
  }
  const body = (typeof range === 'object' && range !== null ? range : {}) as Body;
  const text = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? String(v) : typeof v === 'string' ? v.trim() : '');
  const start = text(body.rangeStart);
  const end = text(body.rangeEnd);
  const pattern = type === 'SUBSCRIBER_ID' ? /^[1-9]\d{0,8}$/ : type === 'ICCID' ? /^\d{18,22}$/ : /^\d{15}$/;
  const messageId = type === 'SUBSCRIBER_ID' ? 'validation.subscriberId.required' : type === 'ICCID' ? 'validation.iccid.invalid' : 'validation.imsi.invalid';
  let ok = true;
  for (const [name, value, raw] of [
    ['rangeStart', start, body.rangeStart],
    ['rangeEnd', end, body.rangeEnd],
  ] as const) {
    if (raw === undefined || raw === null || raw === '') errors.push(fieldError(`${prefix}${name}`, 'required', 'validation.range.required'));
    else if (!pattern.test(value)) errors.push(fieldError(`${prefix}${name}`, 'pattern', messageId));
    else continue;
    ok = false;
  }
  if (!ok) return undefined;
  const after = type === 'SUBSCRIBER_ID' ? Number(start) > Number(end) : start.length !== end.length || start > end;
  if (after) {
    errors.push(fieldError(`${prefix}rangeEnd`, 'order', 'validation.range.order'));
    return undefined;
  }
  return { type, start, end };
}
