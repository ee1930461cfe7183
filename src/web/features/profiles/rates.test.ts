import { describe, expect, it } from 'vitest';
import { fromDraft, invalidCells, isRateText, sameRates, toDraft } from './rates';

describe('price table rates', () => {
  it('accepts 0 or more with at most 4 decimals, nothing else', () => {
    for (const ok of ['0', '0.0125', '12', ' 1.5 ', '99999999.9999']) expect(isRateText(ok), ok).toBe(true);
    for (const bad of ['', '-0.01', '0.00001', '1e-3', 'abc', '1,5', '123456789', '.5']) expect(isRateText(bad), bad).toBe(false);
  });

  it('names each invalid cell and sends exact numbers', () => {
    const draft = toDraft([{ country: 'DE', moCall: 0.05, mtCall: 0, moSms: 0.02, mtSms: 0, data: 0.0125 }]);
    expect(draft[0].data).toBe('0.0125');
    expect(invalidCells(draft)).toEqual([]);
    const edited = [{ ...draft[0], moSms: '-1', data: '0.12345' }];
    expect(invalidCells(edited)).toEqual(['DE/moSms', 'DE/data']);
    expect(sameRates(draft, edited)).toBe(false);
    expect(fromDraft([{ ...draft[0], data: ' 0.0007 ' }])[0]).toEqual({ country: 'DE', moCall: 0.05, mtCall: 0, moSms: 0.02, mtSms: 0, data: 0.0007 });
  });
});
