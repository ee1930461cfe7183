/**
 * Payments: saved cards, limits, top ups and their history. A payment moves the reseller's balance, so every write
 * here also forgets the balance, the reseller rows and the payment lists that show it.
 */
import { enhancedApi, type PostPaymentsPagedApiResponse } from './paymentsApi.gen';
import { saveAttachment } from './endpoints';

/** The server refuses proofs of this size or more ('File size should be less than 4 MB!'). */
export const PROOF_MAX_BYTES = 4 * 1024 * 1024;
/** What a proof may be; the server judges the content, not the name. */
export const PROOF_ACCEPT = '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg';

export type Payment = PostPaymentsPagedApiResponse['items'][number];
export type PaymentPage = PostPaymentsPagedApiResponse;
export type PaymentMethodCode = Payment['method'];

const BALANCE = { type: 'ResellerBalance' as const, id: 'LIST' };
const MONEY = { invalidatesTags: ['Payments' as const, 'PaymentParameters' as const, 'resellers' as const, 'reseller' as const, BALANCE] };

const tagged = enhancedApi.enhanceEndpoints({
  addTagTypes: ['Payments', 'Cards', 'PaymentParameters', 'ResellerBalance', 'resellers', 'reseller'],
  endpoints: {
    getPaymentsMethodsCreditCards: { providesTags: ['Cards'] },
    postPaymentsMethodsCreditCards: { invalidatesTags: ['Cards'] },
    deletePaymentsMethodsCreditCardsById: { invalidatesTags: ['Cards'] },
    getPaymentsParameters: { providesTags: ['PaymentParameters'] },
    putPaymentsParametersResellersByResellerId: { invalidatesTags: ['PaymentParameters'] },
    postPaymentsPaged: { providesTags: ['Payments'] },
    postAccountsByIdPaymentsPaged: { providesTags: ['Payments'] },
    getPaymentsBankWiresPending: { providesTags: ['Payments'] },
    getPaymentsBitPayById: { providesTags: ['Payments'] },
    // A new card may be kept with the payment.
    postPaymentsSubmit: { invalidatesTags: [...MONEY.invalidatesTags, 'Cards'] },
    postPaymentsSubmitManual: MONEY,
    postPaymentsReset: MONEY,
    postPaymentsBankWiresByIdConfirm: MONEY,
    postPaymentsBankWiresByIdReject: MONEY,
  },
});

export const paymentsApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    // Not generated: a multipart upload (amount, reference and the proof file), which the document cannot describe.
    submitBankWire: build.mutation<Payment, { amount: string; reference: string; file: File; idempotencyKey: string }>({
      query: ({ amount, reference, file, idempotencyKey }) => {
        const body = new FormData();
        body.append('amount', amount);
        body.append('reference', reference);
        body.append('file', file);
        return { url: '/payments/submit/bank-wire', method: 'POST', body, headers: { 'Idempotency-Key': idempotencyKey } };
      },
      invalidatesTags: ['Payments'],
    }),
    // Not generated: the proof streamed as a file, which the document cannot describe.
    downloadWireProof: build.mutation<string, number>({
      query: (id) => ({ url: `/payments/bank-wires/${id}/proof`, method: 'GET', responseHandler: saveAttachment }),
    }),
  }),
});

export const {
  useGetPaymentsMethodsCreditCardsQuery,
  usePostPaymentsMethodsCreditCardsMutation,
  useDeletePaymentsMethodsCreditCardsByIdMutation,
  useGetPaymentsMethodsQuery,
  useGetPaymentsParametersQuery,
  usePutPaymentsParametersResellersByResellerIdMutation,
  usePostPaymentsSubmitCalculateFeeQuery,
  usePostPaymentsSubmitMutation,
  usePostPaymentsSubmitManualMutation,
  usePostPaymentsResetMutation,
  useGetPaymentsBitPayByIdQuery,
  useGetPaymentsBankWiresPendingQuery,
  usePostPaymentsBankWiresByIdConfirmMutation,
  usePostPaymentsBankWiresByIdRejectMutation,
  usePostPaymentsPagedQuery,
  usePostAccountsByIdPaymentsPagedQuery,
  useSubmitBankWireMutation,
  useDownloadWireProofMutation,
} = paymentsApi;
