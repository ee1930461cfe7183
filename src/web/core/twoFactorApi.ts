/** Two-factor sign-in: the signed-in user's enrolment, and the administrator's requirement per reseller. */
import type { Page } from '@shared/wire';
import { api } from './api';

export interface TwoFactorStatus {
  enabled: boolean;
  /** The user's reseller, or one above it, requires a second factor: it cannot be turned off. */
  required: boolean;
}

/** A secret being enrolled and the otpauth:// address its QR code carries. */
export interface TwoFactorEnrolment {
  secret: string;
  otpauthUri: string;
}

export interface ResellerTwoFactor {
  id: number;
  name: string;
  path: string;
  requireTwoFactor: boolean;
  users: number;
  enrolledUsers: number;
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['TwoFactor', 'ResellerTwoFactor'] });

export const twoFactorApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    twoFactorStatus: build.query<TwoFactorStatus, void>({
      query: () => '/user/two-factor',
      providesTags: ['TwoFactor'],
    }),
    startTwoFactor: build.mutation<TwoFactorEnrolment, void>({
      query: () => ({ url: '/user/two-factor/enrol', method: 'POST' }),
    }),
    confirmTwoFactor: build.mutation<TwoFactorStatus, { code: string }>({
      query: (body) => ({ url: '/user/two-factor/confirm', method: 'POST', body }),
      invalidatesTags: ['TwoFactor'],
    }),
    disableTwoFactor: build.mutation<TwoFactorStatus, { code: string }>({
      query: (body) => ({ url: '/user/two-factor/disable', method: 'POST', body }),
      invalidatesTags: ['TwoFactor'],
    }),
    resellersTwoFactor: build.query<Page<ResellerTwoFactor>, { page: number; size: number }>({
      query: (params) => ({ url: '/admin/two-factor/resellers', params }),
      providesTags: ['ResellerTwoFactor'],
    }),
    requireTwoFactor: build.mutation<ResellerTwoFactor, { id: number; requireTwoFactor: boolean }>({
      query: ({ id, requireTwoFactor }) => ({ url: `/admin/two-factor/resellers/${id}`, method: 'PUT', body: { requireTwoFactor } }),
      invalidatesTags: ['ResellerTwoFactor', 'TwoFactor'],
    }),
  }),
});

export const {
  useTwoFactorStatusQuery,
  useStartTwoFactorMutation,
  useConfirmTwoFactorMutation,
  useDisableTwoFactorMutation,
  useResellersTwoFactorQuery,
  useRequireTwoFactorMutation,
} = twoFactorApi;
