/**
 * SIM cards: one card by its ICCID (with an eSIM's activation code), the paged list the caller may see, and
 * mailing an eSIM's activation QR code.
 */
import { api } from '@web/core/api';
import type { Page } from '@shared/wire';

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

export interface SimCardSearch {
  page: number;
  size: number;
  /** Part of the ICCID, digits only. */
  searchKey?: string;
  simType?: SimType;
  status?: SimStatus;
}

const SIM = 'SimCard';

export const simApi = api.enhanceEndpoints({ addTagTypes: [SIM] }).injectEndpoints({
  endpoints: (build) => ({
    simCard: build.query<SimCard, string>({
      query: (iccid) => `/sim-cards/${iccid}`,
      providesTags: (_r, _e, iccid) => [{ type: SIM, id: iccid }],
    }),
    simCards: build.query<Page<SimCard>, SimCardSearch>({
      query: ({ page, size, searchKey, simType, status }) => ({
        url: '/sim-cards',
        params: { page, size, ...(searchKey ? { searchKey } : {}), ...(simType ? { simType } : {}), ...(status ? { status } : {}) },
      }),
      providesTags: [{ type: SIM, id: 'LIST' }],
    }),
    sendQrCode: build.mutation<{ message: string }, { iccid: string; email: string }>({
      query: ({ iccid, email }) => ({ url: `/sim-cards/${iccid}`, method: 'POST', body: { email } }),
    }),
  }),
});

export const { useSimCardQuery, useSimCardsQuery, useSendQrCodeMutation } = simApi;
