/**
 * The prepaid package calls: a subscriber's packages, the templates offered to them, assigning, purchasing and
 * expiring, the sales history with its download, and the reseller's balance that purchases draw on. Sales are
 * rows of `packageSchema`, so the grid and the list request follow the same rules as every entity list.
 */
import type { ListRequest, Page } from '@shared/wire';
import type { PackageSaleRequest, PrepaidPackage, ResellerBalance, SubscriberPackages } from '@shared/prepaid';
import { api } from './api';
import { saveAttachment } from './endpoints';
import type { EntityRow } from './types';

/** A template as the template list call (`GET /pre-paid-packages/templates`) gives it. */
export interface TemplateChoice {
  id: number;
  name: string;
  resellerId: number;
  resellerName: string;
  priority: number;
  locationZoneId: number;
  locationZoneName?: string;
  destinationZoneName?: string;
  periodDays: number;
  price: number;
  dataMb?: number;
  unlimitedData: boolean;
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['PrepaidPackage', 'ResellerBalance'] });
const LIST = { type: 'PrepaidPackage' as const, id: 'LIST' };
const BALANCE = { type: 'ResellerBalance' as const, id: 'LIST' };

export const packagesApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    subscriberPackages: build.query<PrepaidPackage[], { subscriberId: number; showExpired: boolean }>({
      query: ({ subscriberId, showExpired }) => ({ url: `/pre-paid-packages/list/${subscriberId}`, params: showExpired ? { show_expired: 'true' } : undefined }),
      transformResponse: (body: SubscriberPackages) => body.subscriberPackages,
      providesTags: [LIST],
    }),
    offeredTemplates: build.query<TemplateChoice[], number>({
      query: (subscriberId) => ({ url: '/pre-paid-packages/templates', params: { subscriber_id: String(subscriberId) } }),
    }),
    assignPackage: build.mutation<PrepaidPackage, PackageSaleRequest>({
      query: (body) => ({ url: '/pre-paid-packages/assign/', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    purchasePackage: build.mutation<PrepaidPackage, PackageSaleRequest>({
      query: (body) => ({ url: '/pre-paid-packages/purchase/', method: 'POST', body }),
      invalidatesTags: [LIST, BALANCE],
    }),
    expirePackage: build.mutation<PrepaidPackage, number>({
      query: (packageId) => ({ url: '/pre-paid-packages/api/expire/', method: 'POST', body: { packageId } }),
      invalidatesTags: [LIST],
    }),
    packageSales: build.query<Page<EntityRow>, ListRequest>({
      query: (body) => ({ url: '/pre-paid-packages/sales', method: 'POST', body }),
      providesTags: [LIST],
    }),
    downloadPackageSales: build.mutation<string, ListRequest>({
      query: (body) => ({ url: '/pre-paid-packages/sales/download', method: 'POST', body, responseHandler: saveAttachment }),
    }),
    resellerBalance: build.query<ResellerBalance, number | undefined>({
      query: (resellerId) => ({ url: '/ledger/balance', params: resellerId === undefined ? undefined : { reseller_id: String(resellerId) } }),
      providesTags: [BALANCE],
    }),
  }),
});

export const {
  useSubscriberPackagesQuery,
  useOfferedTemplatesQuery,
  useAssignPackageMutation,
  usePurchasePackageMutation,
  useExpirePackageMutation,
  usePackageSalesQuery,
  useDownloadPackageSalesMutation,
  useResellerBalanceQuery,
} = packagesApi;
