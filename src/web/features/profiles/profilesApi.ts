/**
 * The calls of the profiles screens beyond the schemas' own: an allowed list's networks, blocking them, syncing
 * them with the core network, the downloads, and approving a roaming profile. Writes invalidate the row's entity
 * tag, so the detail form and the lists read the new state.
 */
import type { Page } from '@shared/wire';
import { api } from '@web/core/api';
import { answering } from '@web/core/generatedApi';
import { saveAttachment } from '@web/core/endpoints';
import type { EntityRow } from '@web/core/types';
import { enhancedApi } from './profilesApi.gen';

/** Mirrors the server's NETWORK_STATES. */
export const NETWORK_STATES = ['pending', 'blocked', 'preferred', 'removed', 'pendingRemoval', 'pendingChanges'] as const;
export type NetworkState = (typeof NETWORK_STATES)[number];
export type StateCounts = Record<NetworkState, number>;

export interface NetworkSummary {
  allowedListId: number;
  counts: StateCounts;
  countries: { country: string; states: StateCounts }[];
}

export interface ListNetwork {
  networkId: number;
  plmn: string;
  mcc: string;
  mnc: string;
  country: string;
  operator: string | null;
  brand: string | null;
  state: NetworkState;
  inFlight: boolean;
  lastError?: string;
}

export interface BlockRequest {
  allowedListId: number;
  blocked: boolean;
  plmns?: string[];
  countries?: string[];
}

/** An allowed list's sync state, as its row carries it. */
export interface SyncState {
  allowedListId: number;
  uuid: string;
  syncTotal: number | null;
  syncDone: number | null;
  syncFailed: number | null;
  syncStartedAt: string | null;
  syncFinishedAt: string | null;
}

/** A subscriber a change would cut off: seen on one of its networks in the last 30 days. */
export interface ImpactSubscriber {
  subscriberId: number;
  name: string | null;
  imsi: string;
  iccid: string;
  accountId: number | null;
  country: string | null;
  network: string | null;
  lastSeenAt: string | null;
}

/** What a change that blocks or drops networks would do: counts per country and the first subscribers. */
export interface Impact {
  total: number;
  countries: { country: string; count: number }[];
  subscribers: Page<ImpactSubscriber>;
}

/** Subscribers an impact preview lists at once. */
export const IMPACT_PAGE = { page: 0, size: 100 };

const LIST_NETWORKS = 'ListNetworks';
const LIST_SYNC = 'ListSync';

export const profilesApi = answering<{
  getAllowedListsById: SyncState;
  getAllowedListsByIdNetworks: NetworkSummary;
  getAllowedListsByIdNetworksByCountry: ListNetwork[];
  postAdminBlockNetworks: NetworkSummary & { changed: number };
  postAllowedListsByIdSync: { allowedListId: number; sent: number };
  postAdminRoamingProfilesByIdApprove: EntityRow;
  postAllowedListsByIdImpact: Impact;
  postRoamingProfilesByIdImpact: Impact;
}>()(
  enhancedApi.enhanceEndpoints({
    addTagTypes: [LIST_NETWORKS, LIST_SYNC],
    endpoints: {
      /**
       * The list's row read for its sync progress. A cache entry apart from the form's, so polling it while a sync
       * runs does not reset a form being edited.
       */
      getAllowedListsById: { providesTags: (_r, _e, id) => [{ type: LIST_SYNC, id: Number(id) }] },
      getAllowedListsByIdNetworks: { providesTags: (_r, _e, id) => [{ type: LIST_NETWORKS, id: Number(id) }] },
      getAllowedListsByIdNetworksByCountry: { providesTags: (_r, _e, { id }) => [{ type: LIST_NETWORKS, id: Number(id) }] },
      postAdminBlockNetworks: { invalidatesTags: (_r, _e, { allowedListId }) => [{ type: LIST_NETWORKS, id: allowedListId }] },
      postAllowedListsByIdSync: {
        invalidatesTags: (_r, _e, id) => [
          { type: LIST_SYNC, id: Number(id) },
          { type: LIST_NETWORKS, id: Number(id) },
        ],
      },
      /** Previews ask nothing to change, but each answer is read afresh: POST calls, as mutations. */
      postAllowedListsByIdImpact: { invalidatesTags: [] },
      postRoamingProfilesByIdImpact: { invalidatesTags: [] },
      postAdminRoamingProfilesByIdApprove: {
        invalidatesTags: (_r, _e, id) => [
          { type: 'roamingProfile', id: String(id) },
          { type: 'roamingProfile', id: 'LIST' },
        ],
      },
    },
  }),
);

const handWritten = api.injectEndpoints({
  endpoints: (build) => ({
    // Not generated: a streamed file saved by the browser, which the document cannot describe. The server names
    // the list by its uuid here.
    downloadAllowedList: build.mutation<string, string>({
      query: (uuid) => ({ url: `/allowed-lists/${uuid}/download`, method: 'POST', responseHandler: saveAttachment }),
    }),
    // Not generated: a streamed file saved by the browser, which the document cannot describe.
    downloadPriceTable: build.mutation<string, number>({
      query: (id) => ({ url: `/roaming-profiles/${id}/download`, method: 'POST', responseHandler: saveAttachment }),
    }),
    // Not generated: a streamed file saved by the browser, which the document cannot describe.
    downloadWholeProfile: build.mutation<string, number>({
      query: (id) => ({ url: `/v2/roaming-profiles/${id}/download`, method: 'POST', responseHandler: saveAttachment }),
    }),
  }),
});

export const {
  useGetAllowedListsByIdQuery,
  useGetAllowedListsByIdNetworksQuery,
  useGetAllowedListsByIdNetworksByCountryQuery,
  usePostAdminBlockNetworksMutation,
  usePostAllowedListsByIdSyncMutation,
  usePostAdminRoamingProfilesByIdApproveMutation,
  usePostAllowedListsByIdImpactMutation,
  usePostRoamingProfilesByIdImpactMutation,
} = profilesApi;
export const { useDownloadAllowedListMutation, useDownloadPriceTableMutation, useDownloadWholeProfileMutation } = handWritten;
