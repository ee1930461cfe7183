/** Networks with the caller's traffic and active SIMs over a range, per country for the map, and the profiles allowing one. */
import { enhancedApi } from './networkApi.gen';

export type NetworkUsage = import('./networkApi.gen').PostNetworksUsagePagedApiResponse['items'][number];
export type NetworkUsageRequest = import('./networkApi.gen').PostNetworksUsagePagedApiArg;
export type RangeRequest = import('./networkApi.gen').PostNetworksUsageCountriesApiArg;
export type NetworkProfile = import('./networkApi.gen').GetNetworksByPlmnProfilesApiResponse['items'][number];

export const networkApi = enhancedApi.enhanceEndpoints({
  endpoints: {
    // Usage moves as records arrive: read afresh when the page opens again.
    postNetworksUsagePaged: { keepUnusedDataFor: 30 },
    postNetworksUsageCountries: { keepUnusedDataFor: 30 },
  },
});

export const { usePostNetworksUsagePagedQuery, usePostNetworksUsageCountriesQuery, useGetNetworksByPlmnProfilesQuery } = networkApi;
