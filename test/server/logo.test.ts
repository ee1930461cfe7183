import { JSDOM } from 'jsdom';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

/** A 1×1 transparent PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
const SVG =
  '<?xml version="1.0" encoding="UTF-8"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#c99a2e"/></svg>';

/** A logo as design tools write them: editor metadata, a gradient, a reused shape, text, an embedded picture. */
const RICH_SVG = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" viewBox="0 0 120 40" width="120" height="40" inkscape:version="1.3">
  <defs><linearGradient id="gold"><stop offset="0" stop-color="#c99a2e"/><stop offset="1" stop-color="#8a6412"/></linearGradient><circle id="dot" r="4"/></defs>
  <style>.word { font: bold 14px sans-serif; fill: url(#gold); }</style>
  <rect width="120" height="40" rx="6" fill="url('#gold')" style="opacity: 0.9"/>
  <use xlink:href="#dot" x="10" y="20"/><use href="#dot" x="22" y="20"/>
  <text x="34" y="25" class="word">North &amp; Co&#160;</text>
  <image x="100" y="10" width="1" height="1" href="data:image/png;base64,${PNG.toString('base64')}"/>
</svg>`;

/**
 * Known ways past SVG filters. Each is stored cleaned: what could run or fetch is gone, the drawing stays (<rect>).
 */
const BYPASSES = {
  'script element': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect/></svg>',
  'CDATA script': '<svg xmlns="http://www.w3.org/2000/svg"><script type="text/ecmascript"><![CDATA[alert(1)]]></script><rect/></svg>',
  'event handler': '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect onclick="alert(1)"/></svg>',
  'upper case': '<SVG xmlns="http://www.w3.org/2000/svg" ONLOAD="alert(1)"><SCRIPT>alert(1)</SCRIPT><RECT/><A HREF="JAVASCRIPT:alert(1)"><rect/></A></SVG>',
  'javascript: link': '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>',
  'decimal entity': '<svg xmlns="http://www.w3.org/2000/svg"><a href="&#106;avascript:alert(1)"><rect/></a></svg>',
  'hexadecimal entity': '<svg xmlns="http://www.w3.org/2000/svg"><a href="&#x6A;&#x61;vascript&#x3A;alert(1)"><rect/></a></svg>',
  'tab inside the scheme': '<svg xmlns="http://www.w3.org/2000/svg"><a href="java\tscript:alert(1)"><rect/></a></svg>',
  'newline inside the scheme': '<svg xmlns="http://www.w3.org/2000/svg"><a href="java\nscript:alert(1)"><rect/></a></svg>',
  'encoded tab inside the scheme': '<svg xmlns="http://www.w3.org/2000/svg"><a href="java&#9;script:alert(1)"><rect/></a></svg>',
  'xlink:href': '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:alert(1)"><rect/></a></svg>',
  'animate of href': '<svg xmlns="http://www.w3.org/2000/svg"><a><animate attributeName="href" values="javascript:alert(1)"/><rect/></a></svg>',
  'set of href': '<svg xmlns="http://www.w3.org/2000/svg"><a><set attributeName="xlink:href" to="javascript:alert(1)"/><rect/></a></svg>',
  'animateTransform naming href':
    '<svg xmlns="http://www.w3.org/2000/svg"><a><animateTransform attributeName="href" values="javascript:alert(1)"/><rect/></a></svg>',
  'foreignObject with HTML':
    '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/><iframe src="javascript:alert(1)"></iframe></body></foreignObject><rect/></svg>',
  'use of a data: document':
    '<svg xmlns="http://www.w3.org/2000/svg"><use href="data:image/svg+xml;base64,PHN2ZyBpZD0ieCIgb25sb2FkPSJhbGVydCgxKSIvPg==#x"/><rect/></svg>',
  'use of an external document':
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="https://evil.example/sprite.svg#x"/><rect/></svg>',
  'image of an svg data: URL': '<svg xmlns="http://www.w3.org/2000/svg"><image href="data:image/svg+xml,&lt;svg onload=alert(1)&gt;"/><rect/></svg>',
  'style @import': '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.example/x.css); rect { fill: red }</style><rect/></svg>',
  'style with an escaped @import': '<svg xmlns="http://www.w3.org/2000/svg"><style>@\\69mport "https://evil.example/x.css";</style><rect/></svg>',
  'external url() in a style attribute': '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill: url(https://evil.example/p.svg#p)"/></svg>',
  'external url() in a presentation attribute': '<svg xmlns="http://www.w3.org/2000/svg"><rect filter="url(https://evil.example/f.svg#f)"/></svg>',
};

/** Markup inside comments or text: harmless in an SVG file, but not if the logo were ever placed inside a page. */
const HIDDEN_MARKUP = [
  '<svg xmlns="http://www.w3.org/2000/svg"><!--<img src=x onerror=alert(1)>--><rect/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"><title>&lt;/title&gt;&lt;img src=x onerror=alert(1)&gt;</title><rect/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"><style>&lt;/style&gt;&lt;img src=x onerror=alert(1)&gt;</style><rect/></svg>',
];

/** Parses a stored SVG as the browser does (as XML) and lists whatever in it could run, navigate or fetch. */
function hazards(svg: string): string[] {
  const document = new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
  const found: string[] = [];
  for (const element of document.querySelectorAll('*')) {
    const name = element.localName.toLowerCase();
    if (['script', 'foreignobject', 'iframe', 'animate', 'set', 'handler', 'listener'].includes(name)) found.push(`<${name}>`);
    if (name === 'style' && /@import|url\(\s*(?!['"]?#)|\\/i.test(element.textContent ?? '')) found.push(`<style>${element.textContent}`);
    for (const attribute of element.attributes) {
      const value = attribute.value.trim();
      if (/^on/i.test(attribute.localName)) found.push(attribute.name);
      if (attribute.localName === 'href' && !value.startsWith('#') && !/^data:image\/png;base64,/.test(value)) found.push(`${attribute.name}=${value}`);
      if (attribute.localName.toLowerCase() === 'attributename' && /href/i.test(value)) found.push(`attributeName=${value}`);
      if (/javascript:|url\(\s*(?!['"]?#)|\\/i.test(value)) found.push(`${attribute.name}=${value}`);
    }
  }
  return found;
}

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

  it('answers 204 with no body while no reseller up the tree has a logo', async () => {
    const res = await get('northwind');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['vary']).toBe('Authorization');
  });

  it("stores a PNG for the caller's reseller and serves it byte for byte, to its sub-reseller too", async () => {
    expect((await put('northwind', PNG, 'image/png')).statusCode).toBe(204);
    for (const user of ['northwind', 'northwind-iot']) {
      const res = await get(user);
      expect(res.statusCode, user).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['cache-control']).toBe('private, max-age=300');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.rawPayload.equals(PNG)).toBe(true);
    }
    expect((await get('bluesky')).statusCode).toBe(204);
  });

  it("prefers the reseller's own logo to its parent's", async () => {
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
    // Written back as XML without the prolog: the same drawing.
    expect(res.body).toBe('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#c99a2e"/></svg>');
  });

  it('keeps what a logo from a design tool draws: gradients, reused shapes, text, embedded pictures', async () => {
    expect((await put('bluesky', RICH_SVG, 'image/svg+xml')).statusCode).toBe(204);
    const body = (await get('bluesky')).body;
    expect(hazards(body)).toEqual([]);
    for (const kept of [
      '<linearGradient id="gold">',
      'fill="url(\'#gold\')"',
      'style="opacity: 0.9"',
      'fill: url(#gold)',
      'xlink:href="#dot"',
      'href="#dot"',
      'North &amp; Co\u00a0',
      `href="data:image/png;base64,${PNG.toString('base64')}"`,
      'viewBox="0 0 120 40"',
    ]) {
      expect(body, kept).toContain(kept);
    }
    expect(body).not.toContain('inkscape:version'); // editor metadata is not part of the drawing
  });

  it.each(Object.entries(BYPASSES))('stores an SVG with a %s cleaned of it', async (_name, svg) => {
    expect(hazards(svg), 'the sample itself is unsafe').not.toEqual([]);
    expect((await put('bluesky', svg, 'image/svg+xml')).statusCode).toBe(204);
    const res = await get('bluesky');
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(hazards(res.body)).toEqual([]);
    expect(res.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<rect[ />]/s);
  });

  it('stores an SVG with markup hidden in comments or text so that it stays text even inside a page', async () => {
    for (const svg of HIDDEN_MARKUP) {
      expect((await put('bluesky', svg, 'image/svg+xml')).statusCode, svg).toBe(204);
      const body = (await get('bluesky')).body;
      const page = new JSDOM(`<!doctype html><body>${body}</body>`).window.document;
      expect(page.querySelectorAll('img, script, [onerror]').length, body).toBe(0);
      expect(page.querySelector('rect'), body).not.toBeNull();
    }
  });

  it('refuses an SVG of more than 5,000 elements, which would take the server too long to clean', async () => {
    const shapes = '<rect width="1" height="1"/>'.repeat(5000);
    const res = await put('bluesky', `<svg xmlns="http://www.w3.org/2000/svg">${shapes}</svg>`, 'image/svg+xml');
    expect(res.statusCode).toBe(400);
    expect(fieldOf(res)).toEqual({
      field: 'logo',
      rule: 'maxElements',
      messageId: 'validation.logo.complex',
      message: 'The SVG image has too many elements (at most 5,000): simplify it or upload a PNG',
    });
  });

  it('refuses an SVG whose doctype declares entities, before reading it', async () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>';
    const res = await put('bluesky', xxe, 'image/svg+xml');
    expect(res.statusCode).toBe(400);
    expect(fieldOf(res)).toMatchObject({ field: 'logo', rule: 'type' });
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

  it("lets neither an account user nor a provider user other than the administrator change a reseller's logo, even with Resellers", async () => {
    const logos = async () =>
      (
        await sql<{
          resellerId: number;
          contentType: string;
          bytes: Buffer;
        }>`select reseller_id, content_type, bytes from reseller_logo order by reseller_id`.execute(ctx.db)
      ).rows.map((r) => ({ resellerId: Number(r.resellerId), contentType: r.contentType, bytes: Buffer.from(r.bytes).toString('base64') }));
    expect((await put('northwind', PNG, 'image/png')).statusCode).toBe(204);
    const before = await logos();
    const northwindMobile = (await ctx.db.selectFrom('reseller').select('id').where('name', '=', 'Northwind Mobile').executeTakeFirstOrThrow()).id;
    expect(before).toContainEqual({ resellerId: northwindMobile, contentType: 'image/png', bytes: PNG.toString('base64') });
    const as = (token: string) => ({
      put: (payload: Buffer | string, contentType: string) =>
        ctx.app.inject({ method: 'PUT', url: '/portal/user/logo', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, payload }),
      del: () => ctx.app.inject({ method: 'DELETE', url: '/portal/user/logo', headers: { authorization: `Bearer ${token}` } }),
    });
    // An account user of Northwind Mobile: its tenant is its account, not the reseller's brand.
    await ctx.withPrivileges('harbor', ['Resellers'], async () => {
      const harbor = as(await ctx.login('harbor'));
      expect((await harbor.put(JPEG, 'image/jpeg')).statusCode).toBe(403);
      expect((await harbor.del()).statusCode).toBe(403);
    });
    expect(await logos()).toEqual(before);
    // A provider user holding Resellers without being the administrator: the provider's logo shows to every tenant.
    const assistant = as(await ctx.providerUser('brand.assistant', ['Resellers']));
    expect((await assistant.put(JPEG, 'image/jpeg')).statusCode).toBe(403);
    expect((await assistant.del()).statusCode).toBe(403);
    expect(await logos()).toEqual(before);
    // The reseller's own user still may.
    expect((await put('northwind', PNG, 'image/png')).statusCode).toBe(204);
    expect(await logos()).toEqual(before);
  });

  it('removes the logo, after which it answers 204 without one', async () => {
    expect((await del('bluesky')).statusCode).toBe(204);
    expect((await get('bluesky')).statusCode).toBe(204);
    expect((await del('northwind')).statusCode).toBe(204);
    expect((await get('northwind-iot')).statusCode).toBe(204);
  });
});
