/**
 * The reseller pricing calls: the summary of a reseller's plan, its prices per network (paged), per country and
 * per zone, the CSV download, and the margin preview of a plan proposed for a sub-reseller.
 */
import type { NetworkPrice } from '@shared/resellerPricing';
import type { ListRequest, Page } from '@shared/wire';
import { api } from '@web/core/api';
import { saveAttachment } from '@web/core/endpoints';
import { enhancedApi } from './resellerPricingApi.gen';

const params = (resellerId: number | undefined) => (resellerId === undefined ? undefined : { reseller_id: String(resellerId) });
type Scoped<T> = T & { resellerId?: number };

const tagged = api.enhanceEndpoints({ addTagTypes: ['ResellerPricing'] });
const PRICING = { type: 'ResellerPricing' as const, id: 'LIST' };

export const resellerPricingApi = enhancedApi.enhanceEndpoints({
  addTagTypes: ['ResellerPricing'],
  endpoints: {
    getResellerPricing: { providesTags: [PRICING] },
    getResellerPricingCountries: { providesTags: [] },
    getResellerPricingLocationZones: { providesTags: [] },
    getResellerPricingDestinationZones: { providesTags: [] },
    postResellerPricingMarginPreview: { invalidatesTags: [] },
    /** Assigns one of the caller's plans to a sub-reseller (needs Resellers). */
    putResellerPricingPlan: { invalidatesTags: [PRICING] },
  },
});

const handWritten = tagged.injectEndpoints({
  endpoints: (build) => ({
    // Not generated: a read sent as POST, which the generator makes a mutation; the grid needs a cached query.
    networkPrices: build.query<Page<NetworkPrice>, Scoped<ListRequest>>({
      query: ({ resellerId, ...body }) => ({ url: '/reseller-pricing/paged', method: 'POST', body, params: params(resellerId) }),
    }),
    // Not generated: a streamed CSV saved as a file, which the document cannot describe.
    downloadPrices: build.mutation<string, Scoped<ListRequest>>({
      query: ({ resellerId, ...body }) => ({
        url: '/reseller-pricing/download',
        method: 'POST',
        body,
        params: params(resellerId),
        responseHandler: saveAttachment,
      }),
    }),
  }),
});

export const {
  useGetResellerPricingQuery,
  useGetResellerPricingCountriesQuery,
  useGetResellerPricingLocationZonesQuery,
  useGetResellerPricingDestinationZonesQuery,
  usePostResellerPricingMarginPreviewMutation,
  usePutResellerPricingPlanMutation,
} = resellerPricingApi;
export const { useNetworkPricesQuery, useDownloadPricesMutation } = handWritten;
