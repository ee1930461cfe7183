/**
 * SIM cards: one card by its ICCID (with an eSIM's activation code), the paged list the caller may see, and
 * mailing an eSIM's activation QR code.
 */
import { enhancedApi } from './simApi.gen';

export type SimType = 'physical' | 'esim';
export type SimStatus = 'inventory' | 'active' | 'suspended' | 'retired';
export const SIM_TYPES: readonly SimType[] = ['physical', 'esim'];
export const SIM_STATUSES: readonly SimStatus[] = ['inventory', 'active', 'suspended', 'retired'];

export interface SimCard {
  iccid: string;
  simType: SimType | null;
  status: SimStatus | null;
  statusDate: string | null;
  profileType: string | null;
  batch: string | null;
  cost: number | null;
  serviceProviderName: string | null;
  resellerId: number;
  resellerName: string;
  /** The subscriber the card is in service with; null while it waits in inventory. */
  subscriberId: number | null;
  subscriberName: string | null;
  /** Only an eSIM has one, and only the single card's call gives it. */
  activationCode?: string | null;
}

const SIM = 'SimCard';

export const simApi = enhancedApi.enhanceEndpoints({
  addTagTypes: [SIM],
  endpoints: {
    getSimCardsByIccid: { providesTags: (_r, _e, iccid) => [{ type: SIM, id: iccid }] },
    getSimCards: { providesTags: [{ type: SIM, id: 'LIST' }] },
    postSimCardsByIccid: { invalidatesTags: [] },
  },
});

export const { useGetSimCardsByIccidQuery, useGetSimCardsQuery, usePostSimCardsByIccidMutation } = simApi;
