/** The public calls of the login screen: the robot check, the join request and the password reset. */
import { enhancedApi } from './accessApi.gen';

/** The server's answer to a password call: English text; the screens show their own translation. */
export interface MessageResponse {
  message: string;
}

export const accessApi = enhancedApi.enhanceEndpoints({
  endpoints: {
    /** Checks the widget's payload once: true or false. A second check of the same payload answers false. */
    postJoinRecaptcha: { invalidatesTags: [] },
    postJoinRequest: { invalidatesTags: [] },
    /** `{ email }` asks for a reset link (the answer is the same whether or not the address is known); `{ newPassword, token }` sets the password. */
    putUserPasswordReset: { invalidatesTags: [] },
  },
});

export const { usePostJoinRecaptchaMutation, usePostJoinRequestMutation, usePutUserPasswordResetMutation } = accessApi;
