/** The reseller logo: the caller's reseller's or its nearest ancestor's, kept per mock database. */
import { HttpResponse } from 'msw';
import { hasPrivilege } from '@shared/privileges';
import type { MockDatabase } from './data';
import { errorResponse, fieldError, forbiddenResponse, unauthorizedResponse } from './http';
import { callerOf } from './session';
import { openApiHttp } from './openapiHttp';

interface Logo {
  contentType: string;
  bytes: Uint8Array;
}

const LOGO_MAX_BYTES = 4 * 1024 * 1024;
const logosOf = new WeakMap<MockDatabase, Map<number, Logo>>();

function logos(db: MockDatabase) {
  let map = logosOf.get(db);
  if (!map) logosOf.set(db, (map = new Map()));
  return map;
}

/** The image type of the content, as the server judges it (the server also cleans an SVG; the mock keeps it as sent). */
function sniff(bytes: Uint8Array): string | { rule: string; messageId: string } {
  const starts = (magic: number[]) => magic.every((b, i) => bytes[i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  const text = new TextDecoder().decode(bytes);
  if (!/^\uFEFF?\s*(?:<\?xml\s[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*<svg[\s>/]/i.test(text)) return { rule: 'type', messageId: 'validation.logo.type' };
  return 'image/svg+xml';
}

const invalid = (rule: string, messageId: string) => errorResponse(400, 'VALIDATION_FAILED', 'Validation failed', [fieldError('logo', rule, messageId)]);

export function logoHandlers(db: MockDatabase, base: string) {
  const http = openApiHttp(base);
  return [
    // Untyped body: the answer is the logo's image bytes (PNG, JPEG, WebP or SVG), or 204 with no body when there is none.
    http.get('/user/logo', ({ response, request }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      for (let id: number | null = user.resellerId; id !== null; id = db.resellers.find((r) => r.id === id)?.parentId ?? null) {
        const logo = logos(db).get(id);
        if (logo)
          return response.untyped(
            new HttpResponse(logo.bytes.slice().buffer as ArrayBuffer, {
              headers: { 'Content-Type': logo.contentType, 'Cache-Control': 'private, max-age=300' },
            }),
          );
      }
      return response.untyped(new HttpResponse(null, { status: 204, headers: { 'Cache-Control': 'private, max-age=300' } }));
    }),

    http.put('/user/logo', async ({ request }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      if (!hasPrivilege(user.privileges, 'Resellers')) return forbiddenResponse();
      const bytes = new Uint8Array(await request.arrayBuffer());
      if (bytes.length === 0) return invalid('required', 'validation.file.required');
      if (bytes.length > LOGO_MAX_BYTES) return invalid('size', 'validation.file.tooLarge');
      const type = sniff(bytes);
      if (typeof type !== 'string') return invalid(type.rule, type.messageId);
      logos(db).set(user.resellerId, { contentType: type, bytes });
      return new HttpResponse(null, { status: 204 });
    }),

    http.delete('/user/logo', ({ request }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      if (!hasPrivilege(user.privileges, 'Resellers')) return forbiddenResponse();
      logos(db).delete(user.resellerId);
      return new HttpResponse(null, { status: 204 });
    }),
  ];
}
