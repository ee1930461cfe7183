/**
 * Precompiles the form validators at build time. ajv compiles a schema into JavaScript and runs it with
 * `new Function`, which the app's Content-Security-Policy (`script-src 'self'`) forbids in the browser. So the
 * build compiles every schema in schemas/, as the form uses it (`formSchemaOf`), with ajv's standalone code
 * generation and serves the code as the module `virtual:form-validators`: its default export maps each schema's
 * key (`$id`, or RJSF's hash of it) to its validate function, the map `createPrecompiledValidator` reads.
 * Generated on every build and dev-server start, and again when a schema changes, so it cannot drift.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { _ } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { deepEquals, schemaParser, type RJSFSchema } from '@rjsf/utils';
import createAjvInstance from '@rjsf/validator-ajv8/lib/createAjvInstance.js';
import type { EntitySchema } from '@shared/schema';
import { AJV_OPTIONS } from './ajvConfig.ts';
import { formSchemasOf } from './formSchema.ts';

export const VIRTUAL_ID = 'virtual:form-validators';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;

/**
 * Every schema RJSF will ask the validator for, by the key it looks it up under: each form's root schema and
 * the sub-schemas it tests with `isValid` (the options of `anyOf`, `oneOf` and the like).
 */
function schemasByKey(schemas: readonly RJSFSchema[]): Record<string, RJSFSchema> {
  const byKey: Record<string, RJSFSchema> = {};
  for (const schema of schemas) {
    for (const [key, found] of Object.entries(schemaParser(schema))) {
      if (byKey[key] && !deepEquals(byKey[key], found)) throw new Error(`Two different form schemas share the key ${key}`);
      byKey[key] = found;
    }
  }
  return byKey;
}

/**
 * The ES module of precompiled validators for these form schemas. ajv's ES output (`code.esm`) still reaches
 * its run-time helpers (e.g. `ucs2length` for `maxLength`) and ajv-formats' format functions (`code.formats`)
 * through `require(...)`: each becomes an import here. The keys (RJSF hashes such as `-6f676b3a`) are not
 * valid export names, so the functions are exported under names of their own and mapped in the default export.
 */
export function validatorsModuleCode(schemas: readonly RJSFSchema[]): string {
  const byKey = schemasByKey(schemas);
  const keys = Object.keys(byKey).sort();
  const ajv = createAjvInstance(
    undefined,
    undefined,
    {
      ...AJV_OPTIONS.ajvOptionsOverrides,
      code: { source: true, esm: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
      schemas: keys.map((key) => byKey[key]),
    },
    AJV_OPTIONS.ajvFormatOptions,
    undefined,
    AJV_OPTIONS.extenderFn,
  );
  const exportName = (i: number) => `precompiled${i}`;
  const code = standaloneCode(ajv, Object.fromEntries(keys.map((key, i) => [exportName(i), key])));

  const imports: string[] = [];
  const body = code.replace(/^"use strict";/, '').replace(/\brequire\("([^"]+)"\)/g, (_match, id: string) => {
    // ajv names files without their extension, which only CommonJS resolves.
    const file = /\.[cm]?js$/.test(id) ? id : `${id}.js`;
    let i = imports.indexOf(file);
    if (i < 0) i = imports.push(file) - 1;
    return `__commonjs(__imported${i})`;
  });
  return [
    ...imports.map((id, i) => `import * as __imported${i} from ${JSON.stringify(id)};`),
    // A CommonJS module's exports, whether a bundler hands over its namespace or Node its `module.exports` as default.
    'const __commonjs = (ns) => (ns.default && ns.default.__esModule ? ns.default : ns);',
    body,
    `export default {${keys.map((key, i) => `\n  ${JSON.stringify(key)}: ${exportName(i)},`).join('')}\n};`,
    '',
  ].join('\n');
}

/** The entity schemas and the child schemas (rows reached through a parent, e.g. a plan's rules) in `children/`. */
function schemaFiles(schemasDir: string): string[] {
  const jsonIn = (dir: string) =>
    readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => join(dir, name));
  const children = join(schemasDir, 'children');
  return [...jsonIn(schemasDir), ...(existsSync(children) ? jsonIn(children) : [])];
}

/** Serves `virtual:form-validators`, compiled from the entity schemas in `schemasDir`. */
export function formValidatorsPlugin(schemasDir: string): Plugin {
  const dir = resolve(schemasDir);
  const isSchemaFile = (file: string) => resolve(file).startsWith(`${dir}/`) && file.endsWith('.json');
  return {
    name: 'form-validators',
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      const files = schemaFiles(dir);
      for (const file of files) this.addWatchFile(file);
      const schemas = files.flatMap((file) => formSchemasOf(JSON.parse(readFileSync(file, 'utf8')) as EntitySchema));
      return validatorsModuleCode(schemas);
    },
    // A schema added, changed or removed: compile again (the schemas' own modules reload with it).
    hotUpdate({ file, modules }) {
      if (!isSchemaFile(file)) return undefined;
      const validators = this.environment.moduleGraph.getModuleById(RESOLVED_ID);
      if (!validators) return undefined;
      this.environment.moduleGraph.invalidateModule(validators);
      return [...modules, validators];
    },
  };
}
