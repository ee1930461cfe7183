/** The signed-in user's own password. */
import { api } from '@web/app/api';
import type { MessageResponse } from '@web/features/login/accessApi';

export const passwordApi = api.injectEndpoints({
  endpoints: (build) => ({
    changePassword: build.mutation<MessageResponse, { currentPassword: string; newPassword: string }>({
      query: (body) => ({ url: '/user/password', method: 'PUT', body }),
    }),
  }),
});

export const { useChangePasswordMutation } = passwordApi;
