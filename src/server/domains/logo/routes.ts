import type { FastifyInstance } from 'fastify';
import { sql, type ColumnType, type Kysely } from 'kysely';
import { ADMIN_RESELLER_ID } from '@shared/privileges';
import type { Database } from '../../db/types';
import { fieldError, forbidden, invalid } from '../../http/errors';
import { resellerUser } from '../../http/tenancy';
import { principalOf } from '../../http/guard';
import { resellerPathIds, type Principal } from '../../http/principal';
import { sanitiseSvg } from './svg';

interface ResellerLogoTable {
  resellerId: number;
  contentType: string;
  bytes: Uint8Array;
  updatedAt: ColumnType<Date, string | undefined, string>;
}

/** Logos are at most this many bytes ("less than 4 MB"). */
export const LOGO_MAX_BYTES = 4 * 1024 * 1024;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'];
/**
 * Elements an SVG logo may have. Cleaning takes the server about a tenth of a millisecond per element, all that
 * time on the thread that answers every request; a logo rarely has more than a few hundred.
 */
export const SVG_MAX_ELEMENTS = 5000;

const refuse = (rule: string, messageId: string) => invalid([fieldError('logo', rule, messageId)]);

const startsWith = (bytes: Buffer, magic: number[]) => bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);

/** An SVG document: UTF-8 text whose root element, after an XML declaration, comments or a plain doctype, is <svg>. */
function isSvg(bytes: Buffer): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  const prolog = /^\uFEFF?\s*(?:<\?xml\s[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE\s+svg[^>[]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<svg[\s>/]/i;
  return prolog.test(text) ? text : undefined;
}

/** The image type of the content itself, whatever the request declared; refuses anything else. */
export function sniffLogo(body: unknown): string {
  if (body === undefined || body === null || (Buffer.isBuffer(body) && body.length === 0)) throw refuse('required', 'validation.file.required');
  if (!Buffer.isBuffer(body)) throw refuse('type', 'validation.logo.type');
  if (body.length > LOGO_MAX_BYTES) throw refuse('size', 'validation.file.tooLarge');
  if (startsWith(body, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(body, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  const svg = isSvg(body);
  if (svg === undefined) throw refuse('type', 'validation.logo.type');
  if ((svg.match(/<[a-z]/gi)?.length ?? 0) > SVG_MAX_ELEMENTS) throw refuse('maxElements', 'validation.logo.complex');
  return 'image/svg+xml';
}

/**
 * What is stored: pictures as sent; an SVG cleaned of anything that could run or fetch (see ./svg), so a logo
 * exported with editor metadata or a stray script is still accepted, without the parts that do not belong in a logo.
 */
async function storedLogo(body: Buffer, contentType: string): Promise<Buffer> {
  if (contentType !== 'image/svg+xml') return body;
  const clean = await sanitiseSvg(body.toString('utf8'));
  if (clean === undefined) throw refuse('type', 'validation.logo.type');
  return Buffer.from(clean);
}

/**
 * The reseller whose logo the caller may change: its own, and only by the reseller's own users (an account user's
 * tenant is its account, not the reseller's brand); the provider's, which every tenant without a logo of its own
 * shows, only by the administrator.
 */
function logoOwner(principal: Principal): number {
  resellerUser(principal);
  if (principal.resellerId === ADMIN_RESELLER_ID && !principal.isAdmin) throw forbidden();
  return principal.resellerId;
}

/** The reseller logo shown in the top bar: the caller's reseller's, else its nearest ancestor's. */
export async function registerLogoRoutes(app: FastifyInstance, database: Kysely<Database>) {
  const db = database.withTables<{ resellerLogo: ResellerLogoTable }>();
  await app.register(async (scope) => {
    scope.addContentTypeParser(IMAGE_TYPES, { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error: Error & { code?: string }, _request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(400).send(refuse('size', 'validation.file.tooLarge').toJSON());
      throw error; // the application's own handler
    });

    scope.get(
      '/portal/user/logo',
      { config: { signedIn: true }, schema: { tags: ['user'], summary: "The logo of the signed-in user's reseller" } },
      async (request, reply) => {
        const ids = resellerPathIds(principalOf(request).resellerPath);
        const logo = await db
          .selectFrom('resellerLogo as l')
          .innerJoin('reseller as r', 'r.id', 'l.resellerId')
          .select(['l.contentType', 'l.bytes'])
          .where('l.resellerId', 'in', ids)
          .orderBy(sql`length(r.path)`, 'desc')
          .limit(1)
          .executeTakeFirst();
        // The answer depends on who asks: a browser shared by two users must not show one the other's logo.
        reply.header('Cache-Control', 'private, max-age=300').header('Vary', 'Authorization');
        // No logo is a normal state, not an error: the web app shows its default image.
        if (!logo) return reply.status(204).send();
        reply.header('Content-Type', logo.contentType).header('X-Content-Type-Options', 'nosniff');
        if (logo.contentType === 'image/svg+xml') reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
        return reply.send(Buffer.from(logo.bytes));
      },
    );

    scope.put(
      '/portal/user/logo',
      {
        config: { privilege: 'Resellers' },
        bodyLimit: LOGO_MAX_BYTES,
        schema: { tags: ['user'], summary: "Uploads the reseller's logo (SVG or raster image)" },
      },
      async (request, reply) => {
        const resellerId = logoOwner(principalOf(request));
        const contentType = sniffLogo(request.body);
        const bytes = await storedLogo(request.body as Buffer, contentType);
        await db
          .insertInto('resellerLogo')
          .values({ resellerId, contentType, bytes })
          .onConflict((oc) => oc.column('resellerId').doUpdateSet({ contentType, bytes, updatedAt: sql`now()` }))
          .execute();
        return reply.status(204).send();
      },
    );

    scope.delete(
      '/portal/user/logo',
      { config: { privilege: 'Resellers' }, schema: { tags: ['user'], summary: "Removes the reseller's logo" } },
      async (request, reply) => {
        await db
          .deleteFrom('resellerLogo')
          .where('resellerId', '=', logoOwner(principalOf(request)))
          .execute();
        return reply.status(204).send();
      },
    );
  });
}
