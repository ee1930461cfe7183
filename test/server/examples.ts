/**
 * Bodies for the generated calls of any schema: its own first example, or one made from its rules whose required
 * references name rows the caller sees. The contract and access suites use it, so a new schema needs no fixture.
 */
import type { LightMyRequestResponse } from 'fastify';
import { apiRoute, referenceFields, type EntitySchema } from '@shared/schema';
import { exampleBody } from '@shared/schemaExample';

interface Caller {
  post: (url: string, payload?: unknown) => Promise<LightMyRequestResponse>;
  get: (url: string) => Promise<LightMyRequestResponse>;
}

let counter = 0;

/** A short text distinct on every call, for unique fields. */
export function freshSeed(): string {
  return `${Date.now().toString(36).slice(-5)}${(counter++).toString(36)}`;
}

/**
 * The key of a row of `entity` the caller sees, one of reseller `resellerId` when it has one, or undefined when the
 * caller sees none.
 */
export async function visibleRowId(entity: string, caller: Caller, schemas: readonly EntitySchema[], resellerId?: number): Promise<unknown> {
  const schema = schemas.find((s) => s.$id === entity || s['x-entity'].name === entity);
  if (!schema) return undefined;
  const key = schema['x-entity'].key;
  const paged = apiRoute(schema, 'paged');
  const list = apiRoute(schema, 'list');
  let rows: Record<string, unknown>[] = [];
  if (paged) rows = (await caller.post(paged.path, { page: { page: 0, size: 200 } })).json().items ?? [];
  else if (list) rows = (await caller.get(list.path)).json() as Record<string, unknown>[];
  return (rows.find((r) => r.resellerId === resellerId) ?? rows[0])?.[key];
}

/**
 * A create body: the schema's first example; or, without one or with `fromRules`, a body from its rules whose
 * required references (reseller ones aside: the server takes the caller's) name rows the caller sees (of reseller
 * `resellerId` where it can), with the example's other values where it has them and they are not unique.
 */
export async function createBody(
  schema: EntitySchema,
  caller: Caller,
  schemas: readonly EntitySchema[],
  opts: { fromRules?: boolean; resellerId?: number } = {},
): Promise<Record<string, unknown>> {
  const example = schema.examples?.[0];
  if (example && !opts.fromRules) return structuredClone(example);
  const required = new Set([...(schema.required ?? []), ...(schema['x-entity'].requiredOnCreate ?? [])]);
  const references: Record<string, unknown> = {};
  for (const ref of referenceFields(schema)) {
    if (!required.has(ref.field) || ref.entity === 'reseller') continue;
    const id = await visibleRowId(ref.entity, caller, schemas, opts.resellerId);
    if (id === undefined) throw new Error(`${schema.$id}.${ref.field}: the caller sees no ${ref.entity} to refer to`);
    references[ref.field] = schema.properties[ref.field].type === 'array' ? [id] : id;
  }
  const kept = Object.entries(example ?? {}).filter(([k]) => schema.properties[k] && !schema.properties[k]['x-reference'] && !schema.properties[k]['x-unique']);
  return { ...exampleBody(schema, { seed: freshSeed(), references }), ...structuredClone(Object.fromEntries(kept)) };
}
