/**
 * Checks an entity schema file against the meta-schema (schemas/meta/entity.schema.json) and against what the
 * meta-schema cannot say (a column, sort or filter naming a property that exists, a reference naming an entity that
 * exists). Each problem names the file and the JSON pointer of the offending value.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import metaSchema from '../../schemas/meta/entity.schema.json';

export interface SchemaProblem {
  file: string;
  pointer: string;
  message: string;
}

let validateMeta: ReturnType<Ajv['compile']> | undefined;

function meta() {
  if (!validateMeta) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    validateMeta = ajv.compile(metaSchema);
  }
  return validateMeta;
}

const pointer = (...parts: (string | number)[]) => parts.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** Problems of one schema file; `entities` are the names of every entity, for `x-reference`. */
export function schemaProblems(file: string, json: unknown, entities: ReadonlySet<string> = new Set()): SchemaProblem[] {
  const validate = meta();
  if (!validate(json)) {
    return (validate.errors ?? []).map((e) => ({
      file,
      pointer: e.instancePath || '/',
      message: e.keyword === 'additionalProperties' ? `unknown keyword "${String(e.params.additionalProperty)}"` : (e.message ?? e.keyword),
    }));
  }
  const s = json as {
    required?: string[];
    properties: Record<string, { 'x-reference'?: string; 'x-label'?: string; title?: string }>;
    'x-entity': { name: string; key: string; labels?: unknown; requiredOnCreate?: string[] };
    'x-list': {
      defaultSort: { sortBy: string };
      listFields?: string[];
      hiddenUnless?: { field: string };
      pathFilters?: Record<string, string>;
      filters?: { field: string }[];
      search: { by: string; fields?: string[]; child?: unknown }[];
    };
    'x-columns': { field: string }[];
    $id: string;
    title: string;
  };
  const problems: SchemaProblem[] = [];
  const known = (name: string, at: string) => {
    if (!(name in s.properties)) problems.push({ file, pointer: at, message: `names no property: "${name}"` });
  };
  known(s['x-entity'].key, pointer('x-entity', 'key'));
  if (s.$id !== s['x-entity'].name) problems.push({ file, pointer: '/$id', message: `differs from x-entity.name "${s['x-entity'].name}"` });
  (s.required ?? []).forEach((n, i) => known(n, pointer('required', i)));
  (s['x-entity'].requiredOnCreate ?? []).forEach((n, i) => known(n, pointer('x-entity', 'requiredOnCreate', i)));
  known(s['x-list'].defaultSort.sortBy, pointer('x-list', 'defaultSort', 'sortBy'));
  (s['x-list'].listFields ?? []).forEach((n, i) => known(n, pointer('x-list', 'listFields', i)));
  if (s['x-list'].hiddenUnless) known(s['x-list'].hiddenUnless.field, pointer('x-list', 'hiddenUnless', 'field'));
  for (const [param, field] of Object.entries(s['x-list'].pathFilters ?? {})) known(field, pointer('x-list', 'pathFilters', param));
  (s['x-list'].filters ?? []).forEach((f, i) => known(f.field, pointer('x-list', 'filters', i, 'field')));
  s['x-list'].search.forEach((f, i) => {
    if (f.fields) f.fields.forEach((n, j) => known(n, pointer('x-list', 'search', i, 'fields', j)));
    else if (!f.child) known(f.by, pointer('x-list', 'search', i, 'by'));
  });
  s['x-columns'].forEach((c, i) => known(c.field, pointer('x-columns', i, 'field')));
  for (const [name, p] of Object.entries(s.properties)) {
    const ref = p['x-reference'];
    if (ref && entities.size && !entities.has(ref))
      problems.push({ file, pointer: pointer('properties', name, 'x-reference'), message: `names no entity: "${ref}"` });
    if (p['x-label'] && !p.title)
      problems.push({ file, pointer: pointer('properties', name), message: 'has an x-label but no title (the message id it gives the text)' });
  }
  if (s['x-entity'].labels && s.title !== `entity.${s['x-entity'].name}.title`) {
    problems.push({ file, pointer: '/title', message: `must be "entity.${s['x-entity'].name}.title" when x-entity.labels gives its text` });
  }
  return problems;
}

export function formatProblems(problems: SchemaProblem[]): string {
  return problems.map((p) => `${p.file}#${p.pointer}: ${p.message}`).join('\n');
}
