/**
 * The reseller pricing calls: the summary of a reseller's plan, its prices per network (paged), per country and
 * per zone, the CSV download, and the margin preview of a plan proposed for a sub-reseller.
 */
import type { CountryPrice, MarginPreview, MarginPreviewRequest, NetworkPrice, ResellerPricingSummary, ZonePrice } from '@shared/resellerPricing';
import type { ListRequest, Page } from '@shared/wire';
import { api } from '@web/core/api';
import { saveAttachment } from '@web/core/endpoints';

const params = (resellerId: number | undefined) => (resellerId === undefined ? undefined : { reseller_id: String(resellerId) });
type Scoped<T> = T & { resellerId?: number };

const tagged = api.enhanceEndpoints({ addTagTypes: ['ResellerPricing'] });
const PRICING = { type: 'ResellerPricing' as const, id: 'LIST' };

export const resellerPricingApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    resellerPricing: build.query<ResellerPricingSummary, number | undefined>({
      query: (resellerId) => ({ url: '/reseller-pricing', params: params(resellerId) }),
      providesTags: [PRICING],
    }),
    networkPrices: build.query<Page<NetworkPrice>, Scoped<ListRequest>>({
      query: ({ resellerId, ...body }) => ({ url: '/reseller-pricing/paged', method: 'POST', body, params: params(resellerId) }),
    }),
    countryPrices: build.query<{ items: CountryPrice[] }, number | undefined>({
      query: (resellerId) => ({ url: '/reseller-pricing/countries', params: params(resellerId) }),
    }),
    zonePrices: build.query<{ items: ZonePrice[] }, { kind: 'location-zones' | 'destination-zones'; resellerId?: number }>({
      query: ({ kind, resellerId }) => ({ url: `/reseller-pricing/${kind}`, params: params(resellerId) }),
    }),
    downloadPrices: build.mutation<string, Scoped<ListRequest>>({
      query: ({ resellerId, ...body }) => ({ url: '/reseller-pricing/download', method: 'POST', body, params: params(resellerId), responseHandler: saveAttachment }),
    }),
    marginPreview: build.mutation<MarginPreview, MarginPreviewRequest>({
      query: (body) => ({ url: '/reseller-pricing/margin-preview', method: 'POST', body }),
    }),
    /** Assigns one of the caller's plans to a sub-reseller (needs Resellers). */
    assignPlan: build.mutation<{ resellerId: number; pricingPlanId: number | null }, { resellerId: number; pricingPlanId: number | null }>({
      query: (body) => ({ url: '/reseller-pricing/plan', method: 'PUT', body }),
      invalidatesTags: [PRICING],
    }),
  }),
});

export const {
  useResellerPricingQuery,
  useNetworkPricesQuery,
  useCountryPricesQuery,
  useZonePricesQuery,
  useDownloadPricesMutation,
  useMarginPreviewMutation,
  useAssignPlanMutation,
} = resellerPricingApi;
