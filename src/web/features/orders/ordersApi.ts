/**
 * The SIM order calls: the generated endpoints (catalogue, price, submit, lists, detail and the review actions),
 * with the few that are not plain JSON written by hand: placing the order (a GET that changes the order), the
 * artwork upload (multipart), the table's CSV export and the keys file (downloads).
 */
import type { ListRequest } from '@shared/wire';
import { saveAttachment } from '@web/core/endpoints';
import {
  enhancedApi,
  type GetSimOrdersByUuidApiResponse,
  type GetSimProvidersProfilesApiResponse,
  type GetSimProvidersProfilesPagedApiArg,
  type PostSimOrdersAdminResourceRangesPagedApiResponse,
} from './ordersApi.gen';

export type OrderDetail = GetSimOrdersByUuidApiResponse;
export type ProviderProfile = GetSimProvidersProfilesApiResponse[number];
export type ProfilePageArgs = GetSimProvidersProfilesPagedApiArg;
export type ResourceRange = PostSimOrdersAdminResourceRangesPagedApiResponse['items'][number];

/**
 * An order holds the reseller's credit when submitted, releases it when denied or cancelled, resizes it with a
 * discount and charges it at delivery, which also puts the cards into the inventory: those calls forget the
 * balance (the dashboard's available credit) and, for delivery, the inventory, so the screens show them anew.
 */
const BALANCE = { type: 'ResellerBalance' as const, id: 'LIST' };
const MOVES_CREDIT = { invalidatesTags: ['sim-orders' as const, BALANCE] };
const tagged = enhancedApi.enhanceEndpoints({
  addTagTypes: ['ResellerBalance', 'inventory'],
  endpoints: {
    postSimOrdersSubmit: MOVES_CREDIT,
    postSimOrdersByUuidFinancialApprovalByApproved: MOVES_CREDIT,
    postSimOrdersByUuidAdminTechnicalApprovalByApproved: MOVES_CREDIT,
    postSimOrdersByUuidCancel: MOVES_CREDIT,
    postSimOrdersByUuidAdminDiscounts: MOVES_CREDIT,
    postSimOrdersByUuidDeliver: { invalidatesTags: [...MOVES_CREDIT.invalidatesTags, 'inventory'] },
  },
});

const handWritten = tagged.injectEndpoints({
  endpoints: (build) => ({
    placeOrder: build.mutation<OrderDetail, string>({
      query: (uuid) => ({ url: `/sim-orders/${encodeURIComponent(uuid)}/admin/order` }),
      invalidatesTags: ['sim-orders'],
    }),
    downloadOrderKeys: build.mutation<string, string>({
      query: (uuid) => ({ url: `/sim-orders/${encodeURIComponent(uuid)}/admin/keys`, responseHandler: saveAttachment }),
      invalidatesTags: ['sim-orders'],
    }),
    exportOrders: build.mutation<string, ListRequest>({
      query: (body) => ({ url: '/sim-orders/export', method: 'POST', body, responseHandler: saveAttachment }),
    }),
    uploadArtwork: build.mutation<{ id: number; fileName: string; size: number }, { file: File; resellerId?: number }>({
      query: ({ file, resellerId }) => {
        const form = new FormData();
        if (resellerId !== undefined) form.append('resellerId', String(resellerId));
        form.append('file', file);
        return { url: '/sim-orders/artwork', method: 'POST', body: form };
      },
    }),
  }),
});

export const {
  useGetSimProvidersQuery,
  useGetSimProvidersProfilesQuery,
  useGetSimProvidersProfilesPagedQuery,
  usePostSimOrdersAdminResourceRangesPagedQuery,
  usePostSimOrdersAdminResourceRangesMutation,
  usePutSimOrdersAdminResourceRangesByIdMutation,
  usePostSimOrdersAdminResourceRangesByIdRetireMutation,
  usePostSimProvidersProfilesRequestMutation,
  usePostSimProvidersProfilesByIdReviewMutation,
  useGetSimOrdersTypesQuery,
  useGetSimOrdersEfConfigQuery,
  usePostSimOrdersPriceQuery,
  usePostSimOrdersSubmitMutation,
  usePostSimOrdersQuery,
  useGetSimOrdersByUuidQuery,
  usePostSimOrdersByUuidFinancialApprovalByApprovedMutation,
  usePostSimOrdersByUuidAdminTechnicalApprovalByApprovedMutation,
  usePostSimOrdersByUuidCancelMutation,
  useGetSimOrdersByUuidAdminAvailableResourcesQuery,
  usePostSimOrdersByUuidAdminResourcesMutation,
  usePostSimOrdersByUuidAdminDiscountsCalculateMutation,
  usePostSimOrdersByUuidAdminDiscountsMutation,
  usePostSimOrdersByUuidDeliverMutation,
} = tagged;
export const { usePlaceOrderMutation, useDownloadOrderKeysMutation, useExportOrdersMutation, useUploadArtworkMutation } = handWritten;
