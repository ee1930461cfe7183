/** A reseller's webhooks: URLs per event type and the secret (one tag), the delivery log (another). */
import { enhancedApi } from './webhooksApi.gen';

export type WebhookUrls = import('./webhooksApi.gen').GetResellerInfoWebhookUrlsApiResponse;
export type WebhookDelivery = import('./webhooksApi.gen').GetResellerInfoWebhookDeliveriesApiResponse['items'][number];

export const webhooksApi = enhancedApi.enhanceEndpoints({
  addTagTypes: ['webhookUrls', 'webhookDeliveries'],
  endpoints: {
    getResellerInfoWebhookUrls: { providesTags: ['webhookUrls'] },
    postResellerInfoWebhookUrls: { invalidatesTags: ['webhookUrls'] },
    deleteResellerInfoWebhookUrls: { invalidatesTags: ['webhookUrls'] },
    postResellerInfoWebhookSecret: { invalidatesTags: ['webhookUrls'] },
    getResellerInfoWebhookDeliveries: { providesTags: ['webhookDeliveries'] },
    postResellerInfoWebhookUrlsTest: { invalidatesTags: ['webhookDeliveries'] },
    postResellerInfoWebhookDeliveriesByIdRedeliver: { invalidatesTags: ['webhookDeliveries'] },
  },
});

export const {
  useGetResellerInfoWebhookUrlsQuery,
  usePostResellerInfoWebhookUrlsMutation,
  useDeleteResellerInfoWebhookUrlsMutation,
  usePostResellerInfoWebhookSecretMutation,
  usePostResellerInfoWebhookUrlsTestMutation,
  useGetResellerInfoWebhookDeliveriesQuery,
  usePostResellerInfoWebhookDeliveriesByIdRedeliverMutation,
} = webhooksApi;
