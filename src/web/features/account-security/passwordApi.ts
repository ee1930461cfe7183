/** The signed-in user's own password. */
import { enhancedApi } from './passwordApi.gen';
import { tokenReplaced } from '@web/core/authActions';
import type { MessageResponse } from '@web/core/accessApi';

/** A changed password ends every session; this one goes on with the new token the answer carries. */
export type PasswordChanged = MessageResponse & { jwt: string };

export const passwordApi = enhancedApi.enhanceEndpoints({
  endpoints: {
    putUserPassword: {
      invalidatesTags: [],
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        const jwt = (data as PasswordChanged | undefined)?.jwt;
        if (jwt) dispatch(tokenReplaced(jwt));
      },
    },
  },
});

export const { usePutUserPasswordMutation } = passwordApi;
