import { describe, expect, it } from 'vitest';
import type { EntitySchema } from '@shared/schema';
import roamingRule from '@schemas/children/roaming-rule.json';
import * as edits from './ruleEdits';

const schema = roamingRule as unknown as EntitySchema;
const rows = [
  { id: 1, country: 'DE', dataRate: 0.1 },
  { id: 2, country: 'FR', dataRate: 0.2 },
];

describe('rule edits', () => {
  it('reads cells as the rule holds them, leaving what is not a value as text', () => {
    expect(edits.cellValue(schema, 'dataRate', ' 0,25 ')).toBe(0.25);
    expect(edits.cellValue(schema, 'dataRate', 'abc')).toBe('abc');
    expect(edits.cellValue(schema, 'sponsorId', '12')).toBe(12);
    expect(edits.cellValue(schema, 'hidden', 'Yes')).toBe(true);
    expect(edits.cellValue(schema, 'country', 'de')).toBe('DE');
    expect(edits.cellValue(schema, 'network', '  ')).toBeUndefined();
  });

  it("reads a country by code or by name in any of the portal's languages, a date alone as the start of its day in UTC", () => {
    expect(['Germany', 'deutschland', 'Германия', 'גרמניה', '德国', 'Alemania'].map((t) => edits.cellValue(schema, 'country', t))).toEqual([
      'DE',
      'DE',
      'DE',
      'DE',
      'DE',
      'DE',
    ]);
    expect(edits.cellValue(schema, 'country', 'Atlantis')).toBe('Atlantis');
    expect(edits.cellValue(schema, 'startDate', '2026-03-01')).toBe('2026-03-01T00:00:00.000Z');
    expect(edits.cellValue(schema, 'endDate', '2026-03-01T10:00:00+02:00')).toBe('2026-03-01T10:00:00+02:00');
    expect(edits.cellValue(schema, 'endDate', '01.03.2026')).toBe('01.03.2026');
  });

  it('splits a copied block into lines and cells, without the final line break', () => {
    expect(edits.parseBlock('a\tb\r\nc\td\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(edits.parseBlock('single')).toEqual([['single']]);
  });

  it('pastes from a row on, appends rows past the end, and undoes the paste as one step', () => {
    const start = edits.loaded(rows);
    const pasted = edits.paste(
      start,
      [['0.3'], ['0.4'], ['0.5']],
      { rowIndex: 1, columns: ['dataRate'] },
      (cells) => ({ dataRate: Number(cells.dataRate) }),
      () => ({ currency: 'EUR' }),
    );
    expect(pasted.rows.map((r) => [r.status, r.data.dataRate])).toEqual([
      ['clean', 0.1],
      ['changed', 0.3],
      ['new', 0.4],
      ['new', 0.5],
    ]);
    expect(pasted.rows[2].data).toEqual({ currency: 'EUR', dataRate: 0.4 });
    expect(edits.undo(pasted).rows).toEqual(start.rows);
  });

  it("builds one batch of changed, new and deleted rows, and places the server's refusal on its cell", () => {
    let state = edits.loaded(rows);
    state = edits.edit(state, [{ key: '1', values: { dataRate: 0.15 } }]);
    state = edits.addRow(state, { country: 'ES', plmn: '21407' });
    state = edits.removeRows(state, ['2']);
    const batch = edits.toBatch(state, ['country', 'dataRate']);
    expect(batch).toEqual({ save: [{ id: 1, country: 'DE', dataRate: 0.15 }, { country: 'ES' }], delete: [2], keys: ['1', 'new-1'] });
    expect(edits.changeCount(state)).toBe(3);
    const fields = [{ field: 'save[1].country', rule: 'pattern', messageId: 'validation.country.invalid', message: 'Please choose a country' }];
    expect(edits.batchErrors(fields, batch.keys, (e) => e.message)).toEqual({ 'new-1': { country: 'Please choose a country' } });
  });
});
