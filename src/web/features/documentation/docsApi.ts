import { api } from '@web/core/api';

/** The server's live OpenAPI document (GET /portal/v3/api-docs), read with the session's token. */
const docsApi = api.injectEndpoints({
  endpoints: (build) => ({
    openApiDocument: build.query<Record<string, unknown>, void>({
      query: () => '/v3/api-docs',
    }),
  }),
});

export const { useOpenApiDocumentQuery } = docsApi;
