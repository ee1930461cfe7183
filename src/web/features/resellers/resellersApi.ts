/** A reseller's standing and the terms set from above it (credit limit, debt in review, usage date). */
import { enhancedApi } from './resellersApi.gen';

export type ResellerStanding = import('./resellersApi.gen').GetResellerInfoCreditLimitsByIdApiResponse;

/** A change of terms also changes the reseller's row and the list's figures (available credit, debt in review). */
const changesReseller = { invalidatesTags: ['resellers' as const, { type: 'reseller' as const }] };

export const resellersApi = enhancedApi.enhanceEndpoints({
  addTagTypes: ['reseller'],
  endpoints: {
    postResellerInfoCreditLimitsById: changesReseller,
    postResellerInfoByIdDisputedAmount: changesReseller,
    postResellerInfoByIdResetUsageDate: changesReseller,
  },
});

// The balance history is one of the graphs (src/web/core/graphsApi.gen.ts); the page reads it afresh when it opens.
export { usePostGraphsBalanceHistoryQuery } from '@web/core/graphsApi.gen';

export const {
  useGetResellerInfoCreditLimitsByIdQuery,
  usePostResellerInfoCreditLimitsByIdMutation,
  usePostResellerInfoByIdDisputedAmountMutation,
  usePostResellerInfoByIdResetUsageDateMutation,
} = resellersApi;
