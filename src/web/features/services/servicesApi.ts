/** A reseller's account settings; saving them also refreshes the signed-in profile, whose styles the shell applies. */
import { enhancedApi } from './servicesApi.gen';

export type ResellerSettings = import('./servicesApi.gen').GetResellersByIdSettingsApiResponse;

export const servicesApi = enhancedApi.enhanceEndpoints({
  addTagTypes: ['resellerSettings', 'Profile'],
  endpoints: {
    getResellersByIdSettings: { providesTags: (_r, _e, id) => [{ type: 'resellerSettings', id }] },
    putResellersByIdSettings: { invalidatesTags: (_r, _e, arg) => [{ type: 'resellerSettings', id: arg.id }, 'Profile'] },
  },
});

export const { useGetResellersByIdSettingsQuery, usePutResellersByIdSettingsMutation } = servicesApi;
