/** A reseller's invoices: the list (a read sent as POST), issuing a month, and the PDF and CSV downloads. */
import { saveAttachment } from '@web/core/endpoints';
import { enhancedApi } from './invoicesApi.gen';

export type InvoicePage = import('./invoicesApi.gen').PostResellerInfoInvoicesByResellerIdApiResponse;
export type Invoice = InvoicePage['items'][number];
export type InvoiceListBody = import('./invoicesApi.gen').PostResellerInfoInvoicesByResellerIdApiArg['body'];

export const invoicesApi = enhancedApi.enhanceEndpoints({
  addTagTypes: ['invoices'],
  endpoints: {
    postResellerInfoInvoicesByResellerId: { providesTags: ['invoices'] },
    postResellerInfoInvoicesByResellerIdIssue: { invalidatesTags: ['invoices'] },
  },
});

const handWritten = invoicesApi.injectEndpoints({
  endpoints: (build) => ({
    // Not generated: a streamed file saved by the browser, which the document cannot describe.
    downloadInvoice: build.mutation<string, { resellerId: number; invoiceId: number; format: 'pdf' | 'csv' }>({
      query: ({ resellerId, invoiceId, format }) => ({ url: `/reseller-info/invoices/${resellerId}/${invoiceId}/${format}`, responseHandler: saveAttachment }),
    }),
  }),
});

export const { usePostResellerInfoInvoicesByResellerIdQuery, usePostResellerInfoInvoicesByResellerIdIssueMutation } = invoicesApi;
export const { useDownloadInvoiceMutation } = handWritten;
