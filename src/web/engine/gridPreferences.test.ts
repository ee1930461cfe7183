import { describe, expect, it } from 'vitest';
import { readGridLayout, writeGridLayout } from './gridPreferences';

describe('grid layouts in the preferences', () => {
  const layout = {
    columns: [
      { colId: 'name', width: 220 },
      { colId: 'imsi', hide: true },
    ],
    sort: { sortBy: 'name', sortDir: 'desc' as const },
  };

  it('writes one item per list and keeps the other preferences', () => {
    const text = writeGridLayout('[{"type":"darkMode","value":"true"}]', 'subscriber', layout);
    expect(JSON.parse(text)).toEqual([
      { type: 'darkMode', value: 'true' },
      { type: 'grid.subscriber', value: JSON.stringify(layout) },
    ]);
    expect(readGridLayout(text, 'subscriber')).toEqual(layout);
    expect(readGridLayout(text, 'account')).toBeUndefined();
    const replaced = writeGridLayout(text, 'subscriber', { columns: [] });
    expect(JSON.parse(replaced)).toHaveLength(2);
    expect(readGridLayout(writeGridLayout(replaced, 'subscriber', undefined), 'subscriber')).toBeUndefined();
  });

  it('ignores a layout it cannot read', () => {
    expect(readGridLayout('[{"type":"grid.subscriber","value":"{oops"}]', 'subscriber')).toBeUndefined();
    expect(readGridLayout('[{"type":"grid.subscriber","value":"{\\"columns\\":3}"}]', 'subscriber')).toBeUndefined();
    expect(readGridLayout('not json', 'subscriber')).toBeUndefined();
  });
});
