/** The session's calls: sign-in, renewal, the profile, privileges, preferences, version and the reseller list. */
import type { PrivilegeItem } from '@shared/privileges';
import { answering } from './generatedApi';
import { enhancedApi } from './authApi.gen';
import type { LoginRequest, ResellerListItem, SignInResponse, TokenResponse, UiPrivileges, UserProfile, VersionInfo } from './userTypes';

const generated = answering<{
  getUser: UserProfile;
  getUserUiPrivileges: PrivilegeItem[];
  postUserPreferences: void;
  getVersion: VersionInfo;
  getResellerInfoList: ResellerListItem[];
}>()(
  enhancedApi.enhanceEndpoints({
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
