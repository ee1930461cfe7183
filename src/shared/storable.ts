/**
 * Text the database can store as it is: no NUL byte (PostgreSQL's text cannot hold one) and no lone UTF-16
 * surrogate (UTF-8 cannot carry one; the driver would store U+FFFD instead). The server refuses anything else at the
 * edge; the mocks answer the same.
 */

/** A NUL, or a high surrogate without its low half, or a low one without its high half. */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const storable = (text: string) => !UNSTORABLE.test(text);

/** An object as JSON, a query or path parameters make it; not a file's bytes (a Buffer), which hold no text. */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer);

/**
 * The path of the first string in `value` (a key or a value, at any depth) that cannot be stored, such as
 * `page.after` or `save[2].name`; '' for `value` itself; undefined when every string can. Walks with a stack of its
 * own, so a deeply nested body cannot exhaust the call stack.
 */
export function unstorablePath(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [v, path] = item;
    if (typeof v === 'string') {
      if (!storable(v)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`]);
    } else if (isRecord(v)) {
      for (const [k, child] of Object.entries(v).reverse()) {
        const at = path ? `${path}.${k}` : k;
        if (!storable(k)) return at;
        stack.push([child, at]);
      }
    }
  }
  return undefined;
}
