/**
 * SVG logos are cleaned with DOMPurify (its SVG profile) over a jsdom window, then written back as XML. The browser's
 * own parser decides what a tag or a link is, so entity-encoded, split or upper-case tricks are seen as the browser
 * would see them; an allow-list drops scripts, event handlers, <foreignObject>, <animate> and <set>. On top of
 * DOMPurify's rules, a logo may refer only to itself: links point to fragments (#id), and style has no @import,
 * no CSS escapes and no url() but url(#id). Embedded PNG, JPEG, GIF or WebP pictures (<image> with a base64 data:
 * URL) stay, since a raster picture cannot run anything.
 */
import type { DOMPurify } from 'dompurify';
import type { DOMWindow } from 'jsdom';

const LINKS = new Set(['href', 'xlink:href']);
const RASTER_DATA_URL = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i;

/** CSS that could fetch something or hide a word from the checks below. */
const unsafeCss = (css: string) => css.includes('\\') || /@import/i.test(css) || /url\(\s*(?!['"]?#)/i.test(css);

let purifier: Promise<{ purify: DOMPurify; window: DOMWindow }> | undefined;

/** jsdom is loaded on the first SVG upload, not at server start. */
function loadPurifier() {
  purifier ??= (async () => {
    const [{ default: createDOMPurify }, { JSDOM }] = await Promise.all([import('dompurify'), import('jsdom')]);
    const { window } = new JSDOM('');
    const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
    purify.addHook('uponSanitizeAttribute', (node, data) => {
      const value = data.attrValue.trim();
      const keep = LINKS.has(data.attrName)
        ? value.startsWith('#') || (node.nodeName.toLowerCase() === 'image' && RASTER_DATA_URL.test(value))
        : !unsafeCss(value);
      if (!keep) data.keepAttr = false;
    });
    return { purify, window };
  })();
  return purifier;
}

/** The SVG document without anything that could run, fetch or link elsewhere; undefined when no <svg> is left. */
export async function sanitiseSvg(text: string): Promise<string | undefined> {
  const { purify, window } = await loadPurifier();
  const fragment = purify.sanitize(text, { USE_PROFILES: { svg: true, svgFilters: true }, ADD_TAGS: ['use'], RETURN_DOM_FRAGMENT: true });
  const svg = fragment.firstElementChild;
  if (svg?.localName !== 'svg') return undefined;
  for (const style of svg.querySelectorAll('style')) if (unsafeCss(style.textContent ?? '')) style.remove();
  // XML, not HTML, serialisation: the file is served as image/svg+xml, which browsers parse as XML.
  return new window.XMLSerializer().serializeToString(svg);
}
