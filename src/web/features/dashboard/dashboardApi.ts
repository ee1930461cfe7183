/** The dashboard's own calls: the map's countries, the balance summary and support requests. */
import { enhancedApi } from './dashboardApi.gen';

/** The balance summary moves with the reseller's balance: a top up or a purchase reads it again. */
export const dashboardApi = enhancedApi.enhanceEndpoints({
  addTagTypes: ['ResellerBalance'],
  endpoints: {
    getLedgerSummary: { providesTags: [{ type: 'ResellerBalance', id: 'LIST' }] },
    postSupportTickets: { invalidatesTags: [] },
  },
});

export const { useGetLedgerSummaryQuery, usePostGraphsCountriesQuery, usePostSupportTicketsMutation } = dashboardApi;
