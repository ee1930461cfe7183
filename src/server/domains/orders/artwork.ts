/**
 * `POST /portal/sim-orders/artwork`: a card's artwork, uploaded before the order that names it (multipart: file, and
 * resellerId for an order placed for a reseller below the caller's). PNG, JPEG or PDF by content, under 3.5 MB.
 */
import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { fileTypeFromBuffer } from 'file-type';
import type { Kysely } from 'kysely';
import { ARTWORK_MAX_BYTES } from '@shared/orders';
import type { Database } from '../../db/types';
import { fieldError, invalid } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { parseId, INT_MIN } from '../../http/input';
import { resellerInSubtree } from '../resellers/subtree';
import { resellerUser } from '../../http/tenancy';

const ARTWORK_TYPES = new Set(['image/png', 'image/jpeg', 'application/pdf']);
const bad = (field: string, rule: string, messageId: string) => invalid([fieldError(field, rule, messageId)]);

export async function registerArtworkRoute(app: FastifyInstance, db: Kysely<Database>) {
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: ARTWORK_MAX_BYTES - 1, files: 1, fields: 2, fieldSize: 100 } });
    scope.post(
      '/portal/sim-orders/artwork',
      {
        config: { privilege: 'SimOrders' },
        schema: {
          tags: ['sim-orders'],
          consumes: ['multipart/form-data'],
          summary: "Uploads a card's artwork (multipart: file, PNG, JPEG or PDF under 3.5 MB; resellerId optional); answers its id for the order",
          response: {
            201: {
              type: 'object',
              required: ['id', 'fileName', 'size'],
              properties: { id: { type: 'integer' }, fileName: { type: 'string' }, size: { type: 'integer' } },
            },
          },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        resellerUser(principal);
        if (!request.isMultipart()) throw bad('file', 'required', 'validation.file.required');
        const fields: Record<string, string> = {};
        let file: { bytes: Buffer; filename: string } | undefined;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              const bytes = await part.toBuffer();
              if (part.fieldname === 'file') file = { bytes, filename: part.filename };
            } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
          }
        } catch (e) {
          const code = (e as { code?: string }).code;
          if (code === 'FST_REQ_FILE_TOO_LARGE') throw bad('file', 'size', 'order.artwork.tooLarge');
          if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_FILES_LIMIT') throw bad('file', 'parts', 'validation.invalid');
          throw e;
        }
        if (!file?.bytes.length) throw bad('file', 'required', 'validation.file.required');
        const mime = (await fileTypeFromBuffer(file.bytes))?.mime;
        if (!mime || !ARTWORK_TYPES.has(mime)) throw bad('file', 'type', 'order.artwork.type');
        const resellerId = await resellerInSubtree(
          db,
          principal,
          fields.resellerId ? parseId(fields.resellerId, 'resellerId', { min: INT_MIN }) : principal.resellerId,
        );
        const fileName = Array.from(file.filename || 'artwork', (c) => (c < ' ' || c === '/' || c === '\\' ? '_' : c))
          .join('')
          .slice(0, 200);
        const row = await db
          .insertInto('simOrderArtwork')
          .values({ resellerId, fileName, mimeType: mime, size: file.bytes.length, content: file.bytes, uploadedBy: principal.userId })
          .returning(['id', 'fileName', 'size'])
          .executeTakeFirstOrThrow();
        return reply.status(201).send(row);
      },
    );
  });
}
