import { describe, expect, it } from 'vitest';
import { luhnDigit } from '@shared/iccid';
import { rangeFieldOf, rangeProblems, rangeQuantity } from './range';

const iccid = (n: number) => {
  const body = `894400000000${String(n).padStart(6, '0')}`;
  return body + luhnDigit(body);
};

describe('a typed range', () => {
  it('names the field that is missing or malformed, by range type', () => {
    expect(rangeProblems('SUBSCRIBER_ID', '', ' ')).toEqual({ rangeStart: 'assign.range.required', rangeEnd: 'assign.range.required' });
    expect(rangeProblems('SUBSCRIBER_ID', '0', '12')).toEqual({ rangeStart: 'assign.range.format.SUBSCRIBER_ID' });
    expect(rangeProblems('IMSI', '90128000000001', '901280000000020')).toEqual({ rangeStart: 'assign.range.format.IMSI' });
    expect(rangeProblems('ICCID', iccid(1), '12ab')).toEqual({ rangeEnd: 'assign.range.format.ICCID' });
  });

  it('wants the end larger than the start, and ICCIDs of one length', () => {
    expect(rangeProblems('SUBSCRIBER_ID', '20', '9')).toEqual({ rangeEnd: 'assign.range.order' });
    expect(rangeProblems('SUBSCRIBER_ID', '9', '9')).toEqual({ rangeEnd: 'assign.range.order' });
    expect(rangeProblems('SUBSCRIBER_ID', '9', '20')).toEqual({});
    expect(rangeProblems('ICCID', iccid(1), `${iccid(1)}0`)).toEqual({ rangeEnd: 'assign.range.sameLength' });
    expect(rangeProblems('ICCID', iccid(5), iccid(2))).toEqual({ rangeEnd: 'assign.range.order' });
  });

  it('counts the SIMs of the range: ids and IMSIs one by one, ICCIDs without their check digit', () => {
    expect(rangeQuantity('SUBSCRIBER_ID', '9', '20')).toBe(12n);
    expect(rangeQuantity('IMSI', '901280000000001', '901280000001000')).toBe(1000n);
    expect(rangeQuantity('ICCID', iccid(1), iccid(5))).toBe(5n);
    expect(rangeQuantity('SUBSCRIBER_ID', '20', '9')).toBeUndefined();
  });

  it("reads the server's names of the range fields", () => {
    expect(rangeFieldOf('range.rangeEnd')).toBe('rangeEnd');
    expect(rangeFieldOf('rangeStart')).toBe('rangeStart');
    expect(rangeFieldOf('range')).toBeUndefined();
  });
});
