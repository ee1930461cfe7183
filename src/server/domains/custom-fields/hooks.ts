import { sql, type Kysely } from 'kysely';
import { CUSTOM_MAX_FIELDS, type CustomFieldDefinition } from '@shared/customFields';
import type { FieldError } from '@shared/wire';
import { dropSortIndex, ensureSortIndex, purgeValues } from '../../engine/customFields';
import type { EntityHooks } from '../../engine/routes';
import { conflict, fieldError, invalid } from '../../http/errors';
import type { Database } from '../../db/types';

type Row = Record<string, unknown>;

/** The options that mean something for each type; the others are stored empty. */
const OPTIONS: Record<CustomFieldDefinition['type'], string[]> = {
  text: ['minimum', 'maximum', 'pattern'],
  number: ['minimum', 'maximum'],
  date: ['earliest', 'latest'],
  choice: ['choices'],
};
const ALL_OPTIONS = ['minimum', 'maximum', 'pattern', 'earliest', 'latest', 'choices'];
/** What a field is once values exist: changing it would leave stored values of another kind or under another name. */
const FIXED = ['entity', 'key', 'type'];

const given = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The rules between a definition's options, which a JSON Schema of one field cannot state. */
function optionProblems(def: Row): FieldError[] {
  const errors: FieldError[] = [];
  const type = def.type as CustomFieldDefinition['type'];
  if (type === 'choice' && !(Array.isArray(def.choices) && def.choices.length))
    errors.push(fieldError('choices', 'minItems', 'validation.customField.choices'));
  if (type === 'text' && given(def.pattern)) {
    try {
      new RegExp(String(def.pattern), 'u');
    } catch {
      errors.push(fieldError('pattern', 'format', 'validation.customField.pattern'));
    }
  }
  if (type === 'text' && ((given(def.minimum) && !Number.isInteger(Number(def.minimum))) || Number(def.minimum) < 0))
    errors.push(fieldError('minimum', 'type', 'validation.customField.length'));
  if (type === 'text' && ((given(def.maximum) && !Number.isInteger(Number(def.maximum))) || Number(def.maximum) < 1))
    errors.push(fieldError('maximum', 'type', 'validation.customField.length'));
  if (given(def.minimum) && given(def.maximum) && Number(def.minimum) > Number(def.maximum))
    errors.push(fieldError('maximum', 'minimum', 'validation.customField.range'));
  if (given(def.earliest) && given(def.latest) && String(def.earliest) > String(def.latest))
    errors.push(fieldError('latest', 'minimum', 'validation.customField.range'));
  return errors;
}

/**
 * A key names one value of a row, so it must be unique wherever both definitions could apply to the same rows: along
 * the line of tenants through the defining one (its ancestors and its whole subtree). Two sibling tenants may use
 * the same key for fields of their own.
 */
async function keyTaken(trx: Kysely<Database>, def: Row, exceptId?: number): Promise<boolean> {
  const path = (await trx.selectFrom('reseller').select('path').where('id', '=', Number(def.resellerId)).executeTakeFirst())?.path;
  if (!path) return false;
  let q = trx
    .selectFrom('customField as f')
    .innerJoin('reseller as r', 'r.id', 'f.resellerId')
    .select('f.id')
    .where('f.entity', '=', String(def.entity))
    .where('f.key', '=', String(def.key))
    .where((eb) => eb.or([eb('r.path', 'like', sql<string>`${path} || '%'`), sql<boolean>`${path} like r.path || '%'`]));
  if (exceptId !== undefined) q = q.where('f.id', '<>', exceptId);
  return Boolean(await q.executeTakeFirst());
}

/**
 * Custom field definitions: made by the administrator (for every tenant) or a reseller (for its own subtree), never
 * by an account's user. Whatever changes, the engine's cached definitions are dropped so lists and checks use the
 * new ones at once; a deleted field's values leave the rows it applied to.
 */
export const customFieldHooks: EntityHooks = {
  async beforeWrite({ mode, values, existing, trx }) {
    const def: Row = { ...existing, ...values };
    if (existing) {
      const changed = FIXED.filter((f) => f in values && values[f] !== existing[f]);
      if (changed.length) throw invalid(changed.map((f) => fieldError(f, 'fixed', 'validation.customField.fixed')));
    }
    const problems = optionProblems(def);
    if (problems.length) throw invalid(problems);
    if (await keyTaken(trx, def, existing ? Number(existing.id) : undefined)) throw conflict([fieldError('key', 'unique', 'entity.customField.unique')]);
    if (mode === 'create') {
      const { n } = await trx
        .selectFrom('customField')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('resellerId', '=', Number(def.resellerId))
        .where('entity', '=', String(def.entity))
        .executeTakeFirstOrThrow();
      if (Number(n) >= CUSTOM_MAX_FIELDS) throw invalid([fieldError('key', 'maxItems', 'validation.customField.tooMany')]);
    }
    const applying = OPTIONS[def.type as CustomFieldDefinition['type']] ?? [];
    const stored: Row = { ...values };
    for (const option of ALL_OPTIONS) if (!applying.includes(option) && (option in values || existing?.[option] !== undefined)) stored[option] = null;
    return stored;
  },
  async afterWrite({ mode, values, trx }) {
    if (mode === 'create') await ensureSortIndex(trx, values as unknown as CustomFieldDefinition);
  },
  async beforeDelete({ existing, trx }) {
    await purgeValues(trx, existing as unknown as CustomFieldDefinition);
    await dropSortIndex(trx, existing as unknown as CustomFieldDefinition);
  },
};
