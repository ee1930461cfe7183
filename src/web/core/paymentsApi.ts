/** Payments: the generated calls, and the two the document cannot express (the wire's form and its proof file). */
import { saveAttachment } from './endpoints';
import { enhancedApi, type GetPaymentsByIdApiResponse } from './paymentsApi.gen';

/** The server refuses proofs of this size or more ('File size should be less than 4 MB!'). */
export const PROOF_MAX_BYTES = 4 * 1024 * 1024;
/** What a proof may be; the server judges the content, not the name. */
export const PROOF_ACCEPT = '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg';

export interface BankWire {
  amount: string;
  reference: string;
  description?: string;
  file: File;
  /** Sent as the Idempotency-Key header: a retried submit records one wire. */
  idempotencyKey?: string;
}

export const paymentsApi = enhancedApi.injectEndpoints({
  endpoints: (build) => ({
    // Not generated: a multipart form (amount, reference, description and the proof file).
    submitBankWire: build.mutation<GetPaymentsByIdApiResponse, BankWire>({
      query: ({ file, idempotencyKey, ...fields }) => {
        const body = new FormData();
        for (const [k, v] of Object.entries(fields)) if (v !== undefined) body.append(k, v);
        body.append('file', file);
        return { url: '/payments/submit/bank-wire', method: 'POST', body, headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {} };
      },
      invalidatesTags: ['payments'],
    }),
    // Not generated: the proof as uploaded, saved as a file, which the document cannot describe.
    downloadPaymentProof: build.mutation<string, number>({
      query: (id) => ({ url: `/payments/bank-wires/${id}/proof`, responseHandler: saveAttachment }),
    }),
  }),
});

export const { useSubmitBankWireMutation, useDownloadPaymentProofMutation } = paymentsApi;
