import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

/** A 1×1 transparent PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
const SVG = '<?xml version="1.0" encoding="UTF-8"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#c99a2e"/></svg>';

describe.each(engines)('reseller logo on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof testApp>>;
  let tokens: Record<string, string>;
  beforeAll(async () => {
    ctx = await testApp(engine);
    tokens = Object.fromEntries(await Promise.all(['northwind', 'northwind-iot', 'bluesky', 'harbor'].map(async (u) => [u, await ctx.login(u)])));
  });
  afterAll(async () => ctx?.close());

  const put = (user: string, payload: Buffer | string, contentType: string) =>
    ctx.app.inject({ method: 'PUT', url: '/portal/user/logo', headers: { authorization: `Bearer ${tokens[user]}`, 'content-type': contentType }, payload });
  const get = (user: string) => ctx.app.inject({ method: 'GET', url: '/portal/user/logo', headers: { authorization: `Bearer ${tokens[user]}` } });
  const del = (user: string) => ctx.app.inject({ method: 'DELETE', url: '/portal/user/logo', headers: { authorization: `Bearer ${tokens[user]}` } });
  const fieldOf = (res: { json(): { fields: unknown[] } }) => res.json().fields[0];

  it('answers 404 in the error shape while no reseller up the tree has a logo', async () => {
    const res = await get('northwind');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  it('stores a PNG for the caller\'s reseller and serves it byte for byte, to its sub-reseller too', async () => {
    expect((await put('northwind', PNG, 'image/png')).statusCode).toBe(204);
    for (const user of ['northwind', 'northwind-iot']) {
      const res = await get(user);
      expect(res.statusCode, user).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['cache-control']).toBe('private, max-age=300');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.rawPayload.equals(PNG)).toBe(true);
    }
    expect((await get('bluesky')).statusCode).toBe(404);
  });

  it('prefers the reseller\'s own logo to its parent\'s', async () => {
    expect((await put('northwind-iot', JPEG, 'image/jpeg')).statusCode).toBe(204);
    const own = await get('northwind-iot');
    expect(own.headers['content-type']).toBe('image/jpeg');
    expect(own.rawPayload.equals(JPEG)).toBe(true);
    expect((await get('northwind')).rawPayload.equals(PNG)).toBe(true);
    expect((await del('northwind-iot')).statusCode).toBe(204);
    expect((await get('northwind-iot')).rawPayload.equals(PNG)).toBe(true);
  });

  it('judges the content, not the declared type', async () => {
    expect((await put('bluesky', PNG, 'image/svg+xml')).statusCode).toBe(204);
    const res = await get('bluesky');
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(PNG)).toBe(true);

    const text = await put('bluesky', 'just some text, not an image', 'image/png');
    expect(text.statusCode).toBe(400);
    expect(fieldOf(text)).toEqual({ field: 'logo', rule: 'type', messageId: 'validation.logo.type', message: 'The logo must be a PNG, JPEG or SVG image' });
    expect((await put('bluesky', '<html><svg></svg></html>', 'image/svg+xml')).statusCode).toBe(400);
  });

  it('serves an SVG with a policy that keeps anything in it from running', async () => {
    expect((await put('bluesky', SVG, 'image/svg+xml')).statusCode).toBe(204);
    const res = await get('bluesky');
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe(SVG);
  });

  it('refuses an SVG with script, event handlers or javascript: links', async () => {
    const unsafe = [
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>',
    ];
    for (const svg of unsafe) {
      const res = await put('bluesky', svg, 'image/svg+xml');
      expect(res.statusCode, svg).toBe(400);
      expect(fieldOf(res), svg).toMatchObject({ field: 'logo', rule: 'unsafe', messageId: 'validation.logo.unsafe' });
    }
    expect((await get('bluesky')).headers['content-type']).toBe('image/svg+xml'); // the earlier logo stays
  });

  it('refuses an empty body and one over 4 MB', async () => {
    const empty = await put('bluesky', Buffer.alloc(0), 'image/png');
    expect(empty.statusCode).toBe(400);
    expect(fieldOf(empty)).toMatchObject({ field: 'logo', messageId: 'validation.file.required', message: 'Please select a file.' });
    const big = Buffer.concat([PNG, Buffer.alloc(4 * 1024 * 1024)]);
    const tooLarge = await put('bluesky', big, 'image/png');
    expect(tooLarge.statusCode).toBe(400);
    expect(fieldOf(tooLarge)).toMatchObject({ field: 'logo', messageId: 'validation.file.tooLarge', message: 'File size should be less than 4 MB!' });
  });

  it('lets only users with the Resellers privilege change it', async () => {
    expect((await put('harbor', PNG, 'image/png')).statusCode).toBe(403);
    expect((await del('harbor')).statusCode).toBe(403);
    expect((await get('harbor')).statusCode).toBe(200); // an account user of Northwind Mobile sees its logo
  });

  it('removes the logo, after which it answers 404', async () => {
    expect((await del('bluesky')).statusCode).toBe(204);
    expect((await get('bluesky')).statusCode).toBe(404);
    expect((await del('northwind')).statusCode).toBe(204);
    expect((await get('northwind-iot')).statusCode).toBe(404);
  });
});
