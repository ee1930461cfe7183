/** The session's calls: sign-in, renewal, the profile, privileges, preferences, version and the reseller list. */
import type { PrivilegeItem } from '@shared/privileges';
import type { QueryDefinition } from '@reduxjs/toolkit/query';
import type { AppBaseQuery } from './api';
import { answering } from './generatedApi';
import { enhancedApi } from './authApi.gen';
import type { LoginRequest, SignInResponse, TokenResponse, UiPrivileges, UserProfile, VersionInfo } from './userTypes';

/** The privileges call answers `{ userPrivileges }`; the app reads the list itself. */
type PrivilegeList = { getUserUiPrivileges: QueryDefinition<void, AppBaseQuery, string, PrivilegeItem[]> };

const generated = answering<{
  getUser: UserProfile;
  postUserPreferences: void;
  getVersion: VersionInfo;
}>()(
  enhancedApi.enhanceEndpoints<never, PrivilegeList>({
    endpoints: {
      getUser: { providesTags: ['Profile'] },
      getUserUiPrivileges: { providesTags: ['Privileges'], transformResponse: (response: UiPrivileges) => response.userPrivileges ?? [] },
      postUserPreferences: { invalidatesTags: [] },
      getVersion: { providesTags: [] },
      getResellerInfoList: { providesTags: ['ResellerList'] },
    },
  }),
);

export const authApi = generated.injectEndpoints({
  endpoints: (build) => ({
    // Not generated: `remember` stays in the browser and an empty code is left out, shaping the document cannot express.
    login: build.mutation<SignInResponse, LoginRequest>({
      query: ({ userName, password, code }) => ({ url: '/auth', method: 'POST', body: { userName, password, ...(code ? { code } : {}) } }),
    }),
    // Not generated: a GET that must never answer from the cache, hence a mutation, which the document cannot say.
    renew: build.mutation<TokenResponse, void>({
      query: () => ({ url: '/auth/renew' }),
    }),
  }),
});

export const {
  useLoginMutation,
  useGetUserQuery,
  useGetUserUiPrivilegesQuery,
  useGetVersionQuery,
  useGetResellerInfoListQuery,
  usePostUserPreferencesMutation,
} = authApi;
