import { describe, expect, it } from 'vitest';
import { numbersOf, pickPage, TotalsCache, type Totals, type TotalsSort } from './totalsCache';

function totalsOf(rows: [key: number | string, up: number, down: number, records: number, active: number | null][]): Totals {
  return {
    keys: rows.map((r) => r[0]),
    up: Float64Array.from(rows, (r) => r[1]),
    down: Float64Array.from(rows, (r) => r[2]),
    records: Float64Array.from(rows, (r) => r[3]),
    active: rows.some((r) => r[4] === null) ? null : Float64Array.from(rows, (r) => r[4]!),
  };
}

/** The order SQL gives: the column in `dir`, then the key in `dir`. */
function sortedAll(t: Totals, sortBy: TotalsSort, dir: 'asc' | 'desc') {
  const value = (i: number) =>
    ({ key: t.keys[i], mb: t.up[i] + t.down[i], bytesUp: t.up[i], bytesDown: t.down[i], records: t.records[i], activeSims: t.active?.[i] ?? null })[sortBy];
  const s = dir === 'asc' ? 1 : -1;
  return t.keys
    .map((_, i) => i)
    .sort((a, b) => {
      const [x, y] = [value(a)!, value(b)!];
      if (x !== y) return (x < y ? -1 : 1) * s;
      return (t.keys[a] < t.keys[b] ? -1 : 1) * s;
    });
}

describe('picking a page of kept totals', () => {
  // Few distinct figures, so ties by the key decide much of the order.
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const rows = Array.from(
    { length: 3000 },
    (_, i) =>
      [i + 1, Math.floor(next() * 20), Math.floor(next() * 20), Math.floor(next() * 5), Math.floor(next() * 3)] as [number, number, number, number, number],
  );
  const t = totalsOf(rows);

  it('answers every order, direction and page as a sort of them all would', () => {
    for (const sortBy of ['key', 'mb', 'bytesUp', 'bytesDown', 'records', 'activeSims'] as const)
      for (const dir of ['asc', 'desc'] as const) {
        const all = sortedAll(t, sortBy, dir);
        for (const [offset, limit] of [
          [0, 25],
          [25, 25],
          [2975, 50],
          [5000, 25],
          [0, 200],
        ])
          expect(pickPage(t, sortBy, dir, offset, limit), `${sortBy} ${dir} ${offset}`).toEqual(all.slice(offset, offset + limit));
      }
  });

  it('sorts them all far into the pages, and compares text keys as text', () => {
    const many = totalsOf(Array.from({ length: 12000 }, (_, i) => [i, i % 7, 0, 1, null] as [number, number, number, number, null]));
    expect(pickPage(many, 'mb', 'desc', 6000, 10)).toEqual(sortedAll(many, 'mb', 'desc').slice(6000, 6010));
    const plmns = totalsOf([
      ['310260', 1, 0, 1, null],
      ['', 1, 0, 1, null],
      ['26201', 1, 0, 1, null],
    ]);
    expect(pickPage(plmns, 'key', 'asc', 0, 3).map((i) => plmns.keys[i])).toEqual(['', '26201', '310260']);
    // Without active SIMs (every dimension but groups) their order is the key's.
    expect(pickPage(plmns, 'activeSims', 'desc', 0, 3).map((i) => plmns.keys[i])).toEqual(['310260', '26201', '']);
  });
});

describe('kept totals', () => {
  const one = totalsOf([[1, 1, 1, 1, null]]);
  const two = totalsOf([
    [1, 1, 1, 1, null],
    [2, 1, 1, 1, null],
  ]);

  it('adds up a question once while it is kept, and again after', async () => {
    let clock = 0;
    const cache = new TotalsCache(10, 1000, () => clock);
    let loads = 0;
    const load = async () => (loads++, one);
    await Promise.all([cache.get('q', load), cache.get('q', load)]);
    expect(loads).toBe(1);
    clock = 999;
    await cache.get('q', load);
    expect(loads).toBe(1);
    clock = 1000;
    await cache.get('q', load);
    expect(loads).toBe(2);
  });

  it('lets the least recently used go past its rows, and keeps no failure', async () => {
    const cache = new TotalsCache(3, 60_000);
    let loads = 0;
    const load = (t: Totals) => async () => (loads++, t);
    await cache.get('a', load(two));
    await cache.get('b', load(one));
    await cache.get('a', load(two));
    await cache.get('c', load(one)); // 5 rows: b, the least recently used, goes
    loads = 0;
    await cache.get('a', load(two));
    await cache.get('c', load(one));
    expect(loads).toBe(0);
    await cache.get('b', load(one));
    expect(loads).toBe(1);
    await expect(cache.get('d', () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(await cache.get('d', load(one))).toBe(one);
  });
});

describe('reading a column of totals', () => {
  it('reads every integer of the text, and refuses anything else', () => {
    expect(Array.from(numbersOf('0,17,9007199254740991,3'))).toEqual([0, 17, 9007199254740991, 3]);
    expect(Array.from(numbersOf('42'))).toEqual([42]);
    expect(numbersOf(null).length).toBe(0);
    expect(numbersOf('').length).toBe(0);
    expect(() => numbersOf('1,-2')).toThrow('non-negative integers');
    expect(() => numbersOf('1.5')).toThrow('non-negative integers');
  });
});
