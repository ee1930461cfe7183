/** The signed-in user's own password. */
import { api } from '@web/core/api';
import { tokenReplaced } from '@web/core/authActions';
import type { MessageResponse } from '@web/core/accessApi';

/** A changed password ends every session; this one goes on with the new token the answer carries. */
export type PasswordChanged = MessageResponse & { jwt: string };

export const passwordApi = api.injectEndpoints({
  endpoints: (build) => ({
    changePassword: build.mutation<PasswordChanged, { currentPassword: string; newPassword: string }>({
      query: (body) => ({ url: '/user/password', method: 'PUT', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data?.jwt) dispatch(tokenReplaced(data.jwt));
      },
    }),
  }),
});

export const { useChangePasswordMutation } = passwordApi;
