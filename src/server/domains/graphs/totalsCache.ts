/**
 * Usage totals of one question (scope, range, dimension, group), kept briefly so that turning the Usage screen's
 * pages or changing its order does not add up the range again (docs/dashboard.md, "Usage by dimension"). Totals per
 * subscriber over a long range take seconds to add up at a million subscribers; a page of them, picked from the kept
 * totals, takes milliseconds. Kept for `ttlMs` from when they were added up, at most `maxRows` rows in all (the
 * least recently used question goes first); a question asked again while it is being added up waits for that answer.
 * Each server process keeps its own.
 */

/** Totals per key: parallel columns, one entry a key. */
export interface Totals {
  /** An id (number) or a PLMN or country (text). */
  keys: (number | string)[];
  up: Float64Array;
  down: Float64Array;
  records: Float64Array;
  /** Subscribers with usage (the group dimension), else null. */
  active: Float64Array | null;
}

/** Past this many totals before a page's last, `pickPage` sorts them all. */
const FULL_SORT_FROM = 5_000;

export type TotalsSort = 'key' | 'mb' | 'bytesUp' | 'bytesDown' | 'records' | 'activeSims';

interface Entry {
  totals: Promise<Totals>;
  at: number;
  rows: number;
}

export interface UsageTotalsOptions {
  /** How long a question's totals are kept from when they were added up (0: not kept). */
  keepMs?: number;
  /** Rows kept in all, over every question. */
  maxRows?: number;
  /** How many of a span's largest subscribers are tried, in turn, as the largest of a range (`usageBy.ts`). */
  candidates?: number[];
}

export class TotalsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxRows = 2_000_000,
    private readonly ttlMs = 30_000,
    private readonly now = () => Date.now(),
  ) {}

  static of(options: UsageTotalsOptions = {}): TotalsCache {
    return new TotalsCache(options.maxRows, options.keepMs);
  }

  /** The totals of `question`, kept or added up by `load`. */
  async get(question: string, load: () => Promise<Totals>): Promise<Totals> {
    if (this.ttlMs <= 0) return load();
    const kept = this.entries.get(question);
    if (kept && this.now() - kept.at < this.ttlMs) {
      // Most recently used last.
      this.entries.delete(question);
      this.entries.set(question, kept);
      return kept.totals;
    }
    const entry: Entry = { totals: load(), at: this.now(), rows: 0 };
    this.entries.set(question, entry);
    try {
      const totals = await entry.totals;
      entry.rows = totals.keys.length;
      this.trim();
      return totals;
    } catch (error) {
      if (this.entries.get(question) === entry) this.entries.delete(question);
      throw error;
    }
  }

  private trim() {
    let rows = 0;
    for (const e of this.entries.values()) rows += e.rows;
    for (const [question, e] of this.entries) {
      if (rows <= this.maxRows) break;
      this.entries.delete(question);
      rows -= e.rows;
    }
  }
}

/**
 * The positions of the totals in `order` from `offset`, `limit` of them: the order of the SQL read (the column, nulls
 * last, then the key, both in `dir`). Keeps only the first `offset + limit` while it reads, so a first page of a
 * million totals is one pass.
 */
export function pickPage(t: Totals, sortBy: TotalsSort, dir: 'asc' | 'desc', offset: number, limit: number): number[] {
  const value: (i: number) => number | string | null = {
    key: (i: number) => t.keys[i],
    mb: (i: number) => t.up[i] + t.down[i],
    bytesUp: (i: number) => t.up[i],
    bytesDown: (i: number) => t.down[i],
    records: (i: number) => t.records[i],
    activeSims: (i: number) => (t.active ? t.active[i] : null),
  }[sortBy];
  const sign = dir === 'asc' ? 1 : -1;
  const compare = (a: number, b: number) => {
    const x = value(a);
    const y = value(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * sign;
    }
    const kx = t.keys[a];
    const ky = t.keys[b];
    return kx === ky ? 0 : (kx < ky ? -1 : 1) * sign;
  };
  const wanted = Math.min(offset + limit, t.keys.length);
  if (wanted <= 0) return [];
  // Far into the pages, one sort of them all costs less than keeping that many in order.
  if (wanted > FULL_SORT_FROM)
    return Array.from(t.keys, (_, i) => i)
      .sort(compare)
      .slice(offset, wanted);
  // The first `wanted` in order, kept sorted; a total after the last of them is passed over at one comparison.
  const best: number[] = [];
  for (let i = 0; i < t.keys.length; i++) {
    if (best.length === wanted && compare(i, best[wanted - 1]) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(best[mid], i) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, i);
    if (best.length > wanted) best.pop();
  }
  return best.slice(offset);
}

/**
 * The non-negative integers of a comma-separated text (as `string_agg` writes them) as numbers, read digit by digit: a
 * split into strings and a `Number` each cost about ten times as much for a million totals.
 */
export function numbersOf(text: string | null): Float64Array {
  if (!text) return new Float64Array(0);
  let count = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 44) count++;
  const out = new Float64Array(count);
  let n = 0;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      out[n++] = value;
      value = 0;
    } else if (c >= 48 && c <= 57) value = value * 10 + (c - 48);
    else throw new Error(`not a list of non-negative integers: ${text.slice(Math.max(0, i - 10), i + 10)}`);
  }
  out[n] = value;
  return out;
}
