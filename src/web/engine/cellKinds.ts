/**
 * How a property shows in a grid cell, chosen by ranked testers: the most specific tester that applies wins,
 * so a money-formatted number is money before it is a number.
 */
import { propertyType, type PropertySchema } from '@shared/schema';

export type CellKind = 'usage' | 'money' | 'bytes' | 'datetime' | 'date' | 'boolean' | 'status' | 'number' | 'text';

type Tester = (prop: PropertySchema) => number;

const TESTERS: [CellKind, Tester][] = [
  ['usage', (p) => (p['x-format'] === 'usage' && typeof p['x-limit'] === 'string' ? 4 : 0)],
  ['money', (p) => (p['x-format'] === 'money' ? 3 : 0)],
  ['bytes', (p) => (p['x-format'] === 'bytes' ? 3 : 0)],
  ['datetime', (p) => (p['x-format'] === 'datetime' || p.format === 'date-time' ? 2 : 0)],
  ['date', (p) => (p['x-format'] === 'date' || p.format === 'date' ? 2 : 0)],
  ['status', (p) => (p['x-format'] === 'status' || Array.isArray(p.enum) ? 2 : 0)],
  ['boolean', (p) => (propertyType(p) === 'boolean' ? 1 : 0)],
  ['number', (p) => (['integer', 'number'].includes(propertyType(p)) ? 1 : 0)],
  ['text', () => 0.5],
];

export function cellKind(prop: PropertySchema | undefined): CellKind {
  if (!prop) return 'text';
  let best: [CellKind, number] = ['text', 0];
  for (const [kind, test] of TESTERS) {
    const rank = test(prop);
    if (rank > best[1]) best = [kind, rank];
  }
  return best[0];
}
