/** The session's calls: sign-in, renewal, the profile, privileges, preferences, version and the reseller list. */
import type { PrivilegeItem } from '@shared/privileges';
import { api } from './api';
import type {
  LoginRequest,
  ResellerListItem,
  SignInResponse,
  TokenResponse,
  UiPrivileges,
  UserProfile,
  VersionInfo,
} from './userTypes';

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<SignInResponse, LoginRequest>({
      query: ({ userName, password, code }) => ({ url: '/auth', method: 'POST', body: { userName, password, ...(code ? { code } : {}) } }),
    }),
    renew: build.mutation<TokenResponse, void>({
      query: () => ({ url: '/auth/renew' }),
    }),
    profile: build.query<UserProfile, void>({
      query: () => '/user',
      providesTags: ['Profile'],
    }),
    privileges: build.query<PrivilegeItem[], void>({
      query: () => '/user/ui-privileges',
      transformResponse: (response: UiPrivileges) => response.userPrivileges ?? [],
      providesTags: ['Privileges'],
    }),
    savePreferences: build.mutation<void, { preferences: string }>({
      query: (body) => ({ url: '/user/preferences', method: 'POST', body }),
    }),
    version: build.query<VersionInfo, void>({
      query: () => '/version',
    }),
    resellerList: build.query<ResellerListItem[], void>({
      query: () => '/reseller-info/list',
      providesTags: ['ResellerList'],
    }),
  }),
});

export const {
  useLoginMutation,
  useProfileQuery,
  usePrivilegesQuery,
  useVersionQuery,
  useResellerListQuery,
  useSavePreferencesMutation,
} = authApi;
