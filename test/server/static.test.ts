import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './helpers';

/** The web build's files as the build leaves them: each with its brotli and gzip copy. */
const INDEX = `<!doctype html><html><head><script type="module" src="./assets/index-Ab1_x-9Z.js"></script></head><body>${'<div id="root"></div>'.repeat(80)}</body></html>`;
const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(400))};`;

// The web app's files do not depend on the database: one engine is enough.
describe("the web app's files", () => {
  let ctx: Awaited<ReturnType<typeof testApp>>;
  const webRoot = mkdtempSync(join(tmpdir(), 'portal-web-'));
  beforeAll(async () => {
    mkdirSync(join(webRoot, 'assets'));
    for (const [path, text] of [
      ['index.html', INDEX],
      ['assets/index-Ab1_x-9Z.js', SCRIPT],
    ]) {
      writeFileSync(join(webRoot, path), text);
      writeFileSync(join(webRoot, `${path}.br`), brotliCompressSync(text));
      writeFileSync(join(webRoot, `${path}.gz`), gzipSync(text));
    }
    writeFileSync(join(webRoot, 'assets/plain.txt'), 'not from the build'); // no hash, no compressed copies
    ctx = await testApp('pglite', { webRoot });
  });
  afterAll(async () => {
    await ctx?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string) =>
    ctx.app.inject({ method: 'GET', url, headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });

  it('serves a hashed file brotli-compressed to a browser, and for good', async () => {
    const res = await get('/assets/index-Ab1_x-9Z.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload.equals(brotliCompressSync(SCRIPT))).toBe(true);
  });

  it('serves gzip to a client without brotli, and the file itself to one without either', async () => {
    const gz = await get('/assets/index-Ab1_x-9Z.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(gzipSync(SCRIPT))).toBe(true);
    const plain = await get('/assets/index-Ab1_x-9Z.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('has the browser check index.html on every load, compressed too', async () => {
    for (const url of ['/', '/index.html']) {
      const res = await get(url, 'gzip, deflate, br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('does not keep a file whose name carries no hash', async () => {
    const res = await get('/assets/plain.txt', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('not from the build');
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});

describe('security headers', () => {
  let ctx: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    ctx = await testApp('pglite');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('come with every answer: the page, the API and its refusals', async () => {
    const answers = [
      await ctx.app.inject({ method: 'GET', url: '/portal/version' }),
      await ctx.app.inject({ method: 'POST', url: '/portal/subscribers/paged', payload: {} }),
      await ctx.app.inject({ method: 'GET', url: '/no/such/page' }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 404]);
    for (const res of answers) {
      const policy = String(res.headers['content-security-policy']);
      expect(policy).toContain("default-src 'self'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("style-src 'self' 'unsafe-inline'");
      expect(policy).toContain("img-src 'self' data: blob:");
      expect(policy).toContain("worker-src 'self' blob:");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });
});
