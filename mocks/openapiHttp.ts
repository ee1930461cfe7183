/**
 * MSW's `http`, declared against the server's OpenAPI document (`mocks/openapi.gen.ts`, written by
 * `npm run api:gen`): a handler's path and method must be an operation of the document, the request body it reads
 * has the operation's type and the body it answers must fit one of the operation's responses, or
 * `npm run typecheck` fails. Paths are the document's (`/subscribers/{id}`), under the API base `base`.
 */
import { createOpenApiHttp } from 'openapi-msw';
import type { paths } from './openapi.gen';

export type DocumentPaths = paths;

export function openApiHttp(base: string) {
  return createOpenApiHttp<paths>({ baseUrl: base });
}

/** The JSON body the document says operation `method` of `path` answers with `status` (200 unless named). */
export type Answer<P extends keyof paths, M extends keyof paths[P], S extends number = 200> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
