/**
 * The inventory calls: ranges with their stock, batches, the SIM cards of a batch (a list of `inventorySimSchema`,
 * paged, sorted and searched like every entity list, and downloadable), assigning a range to an account, the
 * MSISDN pool, the devices seen in the network, and the sponsors the inventory screen lists.
 */
import type { ListRequest, Page } from '@shared/wire';
import { api } from './api';
import { saveAttachment } from './endpoints';
import type { EntityRow } from './types';
import { enhancedApi } from './inventoryApi.gen';

export type {
  GetInventoryRangesApiResponse as InventoryRanges,
  PostInventoryMsisdnListApiResponse as MsisdnPage,
  PostInventoryDevicesApiResponse as DevicePage,
} from './inventoryApi.gen';

/** A sponsor as the sponsor list call gives it. */
export interface SponsorRow {
  id: number;
  name: string;
  plmn: string;
  imsiPrefix: string;
  country: string | null;
}

/** A list request for the cards of one batch (or all the caller's cards without `batchId`). */
export type SimCardsRequest = ListRequest & { batchId?: number };

const INVENTORY = 'inventory';
const SIM_LIST = { type: INVENTORY, id: 'SIMS' } as const;
const tagged = api.enhanceEndpoints({ addTagTypes: [INVENTORY] });
const simsUrl = (path: string, batchId?: number) => `/inventory/sim-cards${path}${batchId ? `?batch_id=${batchId}` : ''}`;

const handWritten = tagged.injectEndpoints({
  endpoints: (build) => ({
    // Not generated: the document does not describe the list request, and a read sent as POST would be generated
    // as a mutation where the grid needs a cached query.
    inventorySimCards: build.query<Page<EntityRow>, SimCardsRequest>({
      query: ({ batchId, ...body }) => ({ url: simsUrl('', batchId), method: 'POST', body }),
      providesTags: [SIM_LIST, INVENTORY],
    }),
    // Not generated: a streamed CSV saved as a file, which the document cannot describe.
    downloadInventorySimCards: build.mutation<string, SimCardsRequest>({
      query: ({ batchId, ...body }) => ({ url: simsUrl('/download', batchId), method: 'POST', body, responseHandler: saveAttachment }),
    }),
    // Not generated: the sponsor list belongs to the sponsor entity, whose calls the engine builds at run time.
    inventorySponsors: build.query<SponsorRow[], void>({ query: () => ({ url: '/sponsors' }) }),
  }),
});

/** Assigning cards to an account makes a subscriber of each: the subscriber lists and pages read them anew. */
const assigning = enhancedApi.enhanceEndpoints({
  addTagTypes: ['subscriber'],
  endpoints: { postInventoryAssign: { invalidatesTags: [INVENTORY, 'subscriber'] } },
});

export const {
  usePostInventoryBatchesSimCardsMutation,
  useGetInventoryRangesQuery,
  usePostInventoryAssignMutation,
  useGetInventoryMsisdnSuppliersQuery,
  useGetInventoryMsisdnCountriesQuery,
  usePostInventoryMsisdnListQuery,
  usePostInventoryDevicesQuery,
  useGetInventoryDevicesByIdChangesQuery,
} = assigning;
export const { useInventorySimCardsQuery, useDownloadInventorySimCardsMutation, useInventorySponsorsQuery } = handWritten;
