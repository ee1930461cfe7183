/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every compressible file of the build, once the build is
 * written. The server hands them out as they are (@fastify/static's `preCompressed`), so it spends no CPU on
 * compression per request and can afford brotli's best (slowest) setting once, at build time.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Text and fonts without compression of their own; PNG, JPEG, WOFF and WOFF2 are already compressed. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|svg|txt|ttf|eot|map|wasm)$/;
/** Below this, the saving does not pay for the extra file. */
const MIN_BYTES = 1024;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (COMPRESSIBLE.test(entry.name)) yield path;
  }
}

async function precompress(path: string) {
  const bytes = await readFile(path);
  if (bytes.length < MIN_BYTES) return;
  const [br, gz] = await Promise.all([
    brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
    gzipped(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  // A copy no smaller than the file would only cost the client time to decode.
  if (br.length < bytes.length) await writeFile(`${path}.br`, br);
  if (gz.length < bytes.length) await writeFile(`${path}.gz`, gz);
}

export function precompressPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'portal:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files: string[] = [];
      for await (const file of filesUnder(outDir)) files.push(file);
      // All at once: zlib works on libuv's thread pool, so the files share the machine's cores.
      await Promise.all(files.map(precompress));
    },
  };
}
