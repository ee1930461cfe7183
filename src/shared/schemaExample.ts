/**
 * A valid create body made from an entity schema alone: its required fields (and those required on create), each
 * given a value its rules accept (lengths, range, pattern, format, enum). References are filled by the caller, who
 * knows which rows it may see. Tests use it when a schema declares no `examples`.
 */
import { integerRange, propertyType, type EntitySchema, type PropertySchema } from './schema';

export interface ExampleOptions {
  /** Makes text values distinct (unique fields): e.g. a counter or a time stamp. */
  seed: string;
  /** Values of reference fields, by property name (an id, or a list of ids for an array). */
  references?: Record<string, unknown>;
  /** Also fill optional writable fields (not references). */
  optional?: boolean;
}

/** The smallest string a simple regular expression matches; undefined when the expression is beyond it. */
export function sampleOfPattern(pattern: string, grow = 0): string | undefined {
  let i = 0;
  const src = pattern;
  const classChar = (): string => {
    // Inside [...]: the first member, or a digit/letter of the seed when it is one the class allows.
    const start = ++i;
    if (src[i] === '^') return '';
    const depth = 0;
    while (i < src.length && (src[i] !== ']' || depth)) i += src[i] === '\\' ? 2 : 1;
    const body = src.slice(start, i);
    i++;
    if (body.startsWith('\\')) return escapeChar(body[1]);
    return body[0];
  };
  const escapeChar = (c: string): string => (({ d: '1', w: 'a', s: ' ' }) as Record<string, string>)[c] ?? (/[DWSbB]/.test(c) ? '' : c);
  const atom = (): string | undefined => {
    const c = src[i];
    if (c === '(') {
      i++;
      if (src.startsWith('?:', i)) i += 2;
      const alt = sequence();
      while (src[i] === '|') {
        i++;
        sequence();
      }
      if (src[i] !== ')') return undefined;
      i++;
      return alt;
    }
    if (c === '[') return classChar();
    if (c === '\\') {
      i += 2;
      return escapeChar(src[i - 1]);
    }
    if (c === '.') {
      i++;
      return 'a';
    }
    i++;
    return c;
  };
  const sequence = (): string | undefined => {
    let out = '';
    while (i < src.length && src[i] !== '|' && src[i] !== ')') {
      if (src[i] === '^' || src[i] === '$') {
        i++;
        continue;
      }
      const a = atom();
      if (a === undefined) return undefined;
      // Each quantifier repeats its least count, plus `grow` where it may (to reach a minimum length).
      let count = 1;
      const q = src[i];
      if (q === '?') {
        count = 0;
        i++;
      } else if (q === '*' || q === '+') {
        count = (q === '+' ? 1 : 0) + grow;
        i++;
      } else if (q === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
        if (!m) return undefined;
        const least = Number(m[1]);
        const most = m[2] ? (m[3] ? Number(m[3]) : Infinity) : least;
        count = Math.min(least + grow, most);
        i += m[0].length;
      }
      out += a.repeat(count);
    }
    return out;
  };
  const first = sequence();
  while (src[i] === '|') {
    i++;
    sequence();
  }
  return first !== undefined && i >= src.length ? first : undefined;
}

function stringValue(field: string, p: PropertySchema, seed: string): string {
  if (p.enum?.length) return String(p.enum[0]);
  const min = p.minLength ?? 0;
  const max = p.maxLength ?? 200;
  let value: string | undefined;
  if (p.format === 'email') value = `e${seed}@example.com`;
  else if (p.format === 'date') value = '2026-01-01';
  else if (p.format === 'date-time') value = '2026-01-01T00:00:00.000Z';
  else if (p.format === 'uri' || p.format === 'url') value = `https://example.com/${seed}`;
  else if (p.format === 'uuid') value = '00000000-0000-4000-8000-000000000001';
  else {
    // Text naming the field and the seed (distinct for unique fields) when the rules allow it, else the field's name
    // alone (a pattern refusing digits), else the pattern's own shortest match, lengthened to the minimum.
    const fit = (text: string) => {
      let t = text.length > max ? text.slice(text.length - max) : text;
      while (t.length < min) t = `x${t}`;
      return t;
    };
    const candidates = [fit(`${field} ${seed}`), fit(`${field}${seed}`), fit(`Aa1@${field}${seed}`), fit(field)];
    if (p.pattern) for (let grow = 0; grow <= max; grow++) candidates.push(sampleOfPattern(p.pattern, grow) ?? '');
    const re = p.pattern ? new RegExp(p.pattern, 'u') : undefined;
    value = candidates.find((c) => c.length >= min && c.length <= max && (!re || re.test(c)));
    if (value === undefined) throw new Error(`${field}: no example for the pattern ${p.pattern}; give the schema "examples"`);
  }
  if (value.length < min || value.length > max) throw new Error(`${field}: no example of ${min} to ${max} characters; give the schema "examples"`);
  return value;
}

function numberValue(p: PropertySchema): number {
  const lowest = p.minimum ?? (typeof p.exclusiveMinimum === 'number' ? p.exclusiveMinimum + ((p.multipleOf as number | undefined) ?? 1) : undefined);
  let value = lowest ?? Math.min(1, p.maximum ?? 1);
  if (typeof p.multipleOf === 'number') value = Math.ceil(value / p.multipleOf) * p.multipleOf;
  if (propertyType(p) === 'integer') {
    value = Math.ceil(value);
    const { min, max } = integerRange(p);
    value = Math.min(Math.max(value, min), max);
  }
  return value;
}

function valueOf(field: string, p: PropertySchema, seed: string): unknown {
  if (p.enum?.length) return p.enum[0];
  if (p.default !== undefined && propertyType(p) !== 'array') return p.default;
  switch (propertyType(p)) {
    case 'string':
      return stringValue(field, p, seed);
    case 'integer':
    case 'number':
      return numberValue(p);
    case 'boolean':
      return false;
    case 'array': {
      const items = (p.items ?? { type: 'string' }) as PropertySchema;
      return Array.from({ length: (p.minItems as number | undefined) ?? 0 }, () => valueOf(field, items, seed));
    }
    default:
      return {};
  }
}

/** A create body for the schema; throws naming the field when a rule is beyond it (the schema then gives `examples`). */
export function exampleBody(schema: EntitySchema, opts: ExampleOptions): Record<string, unknown> {
  const required = new Set([...(schema.required ?? []), ...(schema['x-entity'].requiredOnCreate ?? [])]);
  const body: Record<string, unknown> = {};
  for (const [field, p] of Object.entries(schema.properties)) {
    if (p.readOnly || p['x-join'] || p['x-apart']) continue;
    if (p['x-reference']) {
      if (opts.references && field in opts.references) body[field] = opts.references[field];
      continue;
    }
    if (required.has(field) || opts.optional) body[field] = valueOf(field, p, opts.seed);
  }
  return body;
}
