/**
 * The OpenAPI document as outside tools read it. Route schemas serve validation first: they carry ajv-errors'
 * `errorMessage` and JSON Schema forms OpenAPI 3.0 does not know. The document is cleaned on its way out (the
 * validation schemas keep every keyword), each operation gets an id and the error answer it can give, and the
 * document names the server it describes. `npm run lint:api` checks the result with Redocly.
 */
import type { SwaggerOptions } from '@fastify/swagger';
import { englishText } from './errors';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Keywords of the validation schemas that OpenAPI 3.0's Schema Object does not have. */
const VALIDATION_ONLY = new Set(['errorMessage', '$id', '$schema']);

/** A schema for OpenAPI 3.0: validation-only keywords dropped, numeric exclusive bounds in the boolean form. */
export function documentedSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(documentedSchema);
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    if (VALIDATION_ONLY.has(key)) continue;
    // Schemas name their fields by message id, for the forms; the document's reader gets the English words.
    if (key === 'title' && typeof v === 'string') {
      out.title = englishText(v);
      continue;
    }
    if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof v === 'number') {
      const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
      out[bound] = v;
      out[key] = true;
      continue;
    }
    // `properties` maps names to schemas: a property may be called `errorMessage` or `$id` without being one.
    out[key] =
      key === 'properties' && typeof v === 'object' && v !== null
        ? Object.fromEntries(Object.entries(v).map(([name, p]) => [name, documentedSchema(p)]))
        : documentedSchema(v);
  }
  return out;
}

/** `POST /portal/accounts/{id}/sync` → `postAccountsByIdSync`: unique per method and path. */
export function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/portal\//, '')
    .split(/[/\-_.]+/)
    .filter(Boolean)
    .map((part) => part.replace(/^\{(\w+)\}$/, 'by-$1'))
    .flatMap((part) => part.split('-'));
  return method + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** The one error shape every call answers with (see src/shared/wire.ts). */
const API_ERROR = {
  type: 'object',
  required: ['statusCode', 'code', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string', description: 'VALIDATION_FAILED, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT, STALE, …' },
    message: { type: 'string', description: 'English text of the message' },
    fields: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          field: { type: 'string', description: 'Path of the field (`page.after`, `save[2].name`); empty for the whole body' },
          rule: { type: 'string', description: 'The rule the value breaks (required, type, range, pattern, …)' },
          messageId: { type: 'string', description: "Message id of the portal's catalogues" },
          message: { type: 'string', description: 'English text of the message' },
        },
      },
    },
  },
};

/** The whole document made valid OpenAPI 3.0 for outside tools. */
export function cleanDocument(document: Json, servers: { url: string; description?: string }[]): Json {
  const doc = documentedSchema(document) as Json;
  doc.servers = servers;
  const components = (doc.components ?? {}) as Json;
  components.schemas = { ...(components.schemas as Json | undefined), ApiError: API_ERROR };
  doc.components = components;
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      operation.operationId ??= operationId(method, path);
      const responses = (operation.responses ?? {}) as Json;
      if (!Object.keys(responses).some((status) => status.startsWith('4'))) {
        responses['4XX'] = {
          description: 'Invalid input (400), not signed in (401), no privilege (403), no such row (404) or a conflict (409)',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
        };
      }
      operation.responses = responses;
    }
  }
  return doc;
}

/** @fastify/swagger's options: the document of every route, cleaned by `cleanDocument`. */
export function swaggerOptions(info: { title: string; version: string }, publicUrl: string): SwaggerOptions {
  return {
    openapi: {
      info,
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transformObject: (documents) =>
      cleanDocument(('openapiObject' in documents ? documents.openapiObject : documents.swaggerObject) as Json, [
        { url: publicUrl, description: 'This portal' },
      ]),
  };
}
