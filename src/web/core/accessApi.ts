/** The public calls of the login screen: the robot check, the join request and the password reset. */
import type { JoinRequestBody } from '@shared/join';
import { api } from './api';

/** The server's answer to a password call: English text; the screens show their own translation. */
export interface MessageResponse {
  message: string;
}

export const accessApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Checks the widget's payload once: true or false. A second check of the same payload answers false. */
    checkRobot: build.mutation<boolean, { token: string }>({
      query: (body) => ({ url: '/join/recaptcha/', method: 'POST', body }),
    }),
    sendJoinRequest: build.mutation<{ id: number }, JoinRequestBody>({
      query: (body) => ({ url: '/join/request/', method: 'POST', body }),
    }),
    /** Asks for a reset link; the answer is the same whether or not the address is known. */
    requestPasswordReset: build.mutation<MessageResponse, { email: string }>({
      query: (body) => ({ url: '/user/password/reset', method: 'PUT', body }),
    }),
    resetPassword: build.mutation<MessageResponse, { newPassword: string; token: string }>({
      query: (body) => ({ url: '/user/password/reset', method: 'PUT', body }),
    }),
  }),
});

export const { useCheckRobotMutation, useSendJoinRequestMutation, useRequestPasswordResetMutation, useResetPasswordMutation } =
  accessApi;
