/**
 * The prepaid package calls: a subscriber's packages, the templates offered to them, assigning, purchasing and
 * expiring, the sales history with its download, and the reseller's balance that purchases draw on. Sales are
 * rows of `packageSchema`, so the grid and the list request follow the same rules as every entity list.
 */
import type { ListRequest, Page } from '@shared/wire';
import type { PrepaidPackage, ResellerBalance, SubscriberPackages } from '@shared/prepaid';
import type { QueryDefinition } from '@reduxjs/toolkit/query';
import { api, type AppBaseQuery } from './api';
import { answering } from './generatedApi';
import { saveAttachment } from './endpoints';
import type { EntityRow } from './types';
import { enhancedApi } from './packagesApi.gen';

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

/** The list call answers `{ subscriberPackages }`; the panel reads the list itself. */
type PackageList = { getPrePaidPackagesListBySubscriberId: QueryDefinition<unknown, AppBaseQuery, string, PrepaidPackage[]> };

export const packagesApi = answering<{
  getPrePaidPackagesTemplates: TemplateChoice[];
  getLedgerBalance: ResellerBalance;
  postPrePaidPackagesAssign: PrepaidPackage;
  postPrePaidPackagesPurchase: PrepaidPackage;
  postPrePaidPackagesApiExpire: PrepaidPackage;
}>()(
  enhancedApi.enhanceEndpoints<'PrepaidPackage' | 'ResellerBalance', PackageList>({
    addTagTypes: ['PrepaidPackage', 'ResellerBalance'],
    endpoints: {
      getPrePaidPackagesListBySubscriberId: {
        transformResponse: (body: SubscriberPackages) => body.subscriberPackages,
        providesTags: [LIST],
      },
      getPrePaidPackagesTemplates: { providesTags: [] },
      getLedgerBalance: { providesTags: [BALANCE] },
      postPrePaidPackagesAssign: { invalidatesTags: [LIST] },
      postPrePaidPackagesPurchase: { invalidatesTags: [LIST, BALANCE] },
      postPrePaidPackagesApiExpire: { invalidatesTags: [LIST] },
    },
  }),
);

const handWritten = tagged.injectEndpoints({
  endpoints: (build) => ({
    // Not generated: the document does not describe the list request, and a read sent as POST would be generated
    // as a mutation where the grid needs a cached query.
    packageSales: build.query<Page<EntityRow>, ListRequest>({
      query: (body) => ({ url: '/pre-paid-packages/sales', method: 'POST', body }),
      providesTags: [LIST],
    }),
    // Not generated: a streamed CSV saved as a file, which the document cannot describe.
    downloadPackageSales: build.mutation<string, ListRequest>({
      query: (body) => ({ url: '/pre-paid-packages/sales/download', method: 'POST', body, responseHandler: saveAttachment }),
    }),
  }),
});

export const {
  useGetPrePaidPackagesListBySubscriberIdQuery,
  useGetPrePaidPackagesTemplatesQuery,
  useGetLedgerBalanceQuery,
  usePostPrePaidPackagesAssignMutation,
  usePostPrePaidPackagesPurchaseMutation,
  usePostPrePaidPackagesApiExpireMutation,
} = packagesApi;
export const { usePackageSalesQuery, useDownloadPackageSalesMutation } = handWritten;
