// Import resolver for eslint-plugin-boundaries: maps the path aliases of tsconfig.json (@shared/*, @web/*, …) to
// their folders, then resolves the file as Node would, with the TypeScript extensions.
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');

const nodeResolver = createRequire(require.resolve('eslint-plugin-boundaries'))('eslint-import-resolver-node');
const { paths } = JSON.parse(readFileSync(path.join(__dirname, 'tsconfig.json'), 'utf8')).compilerOptions;
const aliases = Object.entries(paths).map(([alias, [target]]) => [alias.replace(/\*$/, ''), path.join(__dirname, target.replace(/\*$/, ''))]);
const extensions = ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'];

exports.interfaceVersion = 2;
exports.resolve = (source, file) => {
  const alias = aliases.find(([prefix]) => source.startsWith(prefix));
  const target = alias ? alias[1] + source.slice(alias[0].length) : source;
  return nodeResolver.resolve(target, file, { extensions });
};
