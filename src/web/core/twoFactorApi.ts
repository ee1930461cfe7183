/** Two-factor sign-in: the signed-in user's enrolment, and the administrator's requirement per reseller. */
import type { Page } from '@shared/wire';
import { answering } from './generatedApi';
import { enhancedApi } from './twoFactorApi.gen';

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

export const twoFactorApi = answering<{
  getUserTwoFactor: TwoFactorStatus;
  postUserTwoFactorEnrol: TwoFactorEnrolment;
  postUserTwoFactorConfirm: TwoFactorStatus;
  postUserTwoFactorDisable: TwoFactorStatus;
  getAdminTwoFactorResellers: Page<ResellerTwoFactor>;
  putAdminTwoFactorResellersById: ResellerTwoFactor;
}>()(
  enhancedApi.enhanceEndpoints({
    addTagTypes: ['TwoFactor', 'ResellerTwoFactor'],
    endpoints: {
      getUserTwoFactor: { providesTags: ['TwoFactor'] },
      postUserTwoFactorEnrol: { invalidatesTags: [] },
      postUserTwoFactorConfirm: { invalidatesTags: ['TwoFactor'] },
      postUserTwoFactorDisable: { invalidatesTags: ['TwoFactor'] },
      getAdminTwoFactorResellers: { providesTags: ['ResellerTwoFactor'] },
      putAdminTwoFactorResellersById: { invalidatesTags: ['ResellerTwoFactor', 'TwoFactor'] },
    },
  }),
);

export const {
  useGetUserTwoFactorQuery,
  usePostUserTwoFactorEnrolMutation,
  usePostUserTwoFactorConfirmMutation,
  usePostUserTwoFactorDisableMutation,
  useGetAdminTwoFactorResellersQuery,
  usePutAdminTwoFactorResellersByIdMutation,
} = twoFactorApi;
