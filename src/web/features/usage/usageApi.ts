/** Usage totals per dimension over a range (docs/dashboard.md, "Usage by dimension") and their CSV. */
import { saveAttachment } from '@web/core/endpoints';
import { enhancedApi } from './usageApi.gen';

export type UsageByRequest = import('./usageApi.gen').PostGraphsUsageByApiArg['body'];
export type UsageByAnswer = import('./usageApi.gen').PostGraphsUsageByApiResponse;
export type UsageItem = UsageByAnswer['items'][number];
export type UsageDimension = NonNullable<UsageByRequest['dimension']>;
export type UsageRange = NonNullable<UsageByRequest['range']>;
export type UsageSort = NonNullable<UsageByRequest['sortBy']>;

export const usageApi = enhancedApi
  .enhanceEndpoints({
    endpoints: {
      // Usage moves as records arrive: read afresh when the page opens again.
      postGraphsUsageBy: { keepUnusedDataFor: 30 },
    },
  })
  .injectEndpoints({
    endpoints: (build) => ({
      // Not generated: a streamed CSV saved as a file, which the document cannot describe.
      downloadUsageBy: build.mutation<string, Omit<UsageByRequest, 'page' | 'size'>>({
        query: (body) => ({ url: '/graphs/usageBy/download', method: 'POST', body, responseHandler: saveAttachment }),
      }),
    }),
  });

export const { usePostGraphsUsageByQuery, useDownloadUsageByMutation } = usageApi;
