/**
 * The session: token, sign-in status, profile and privileges. It reacts to the API's answers with matchers,
 * so components call the endpoints and never copy results into the store by hand.
 */
import { createSlice } from '@reduxjs/toolkit';
import { isAdministrator } from '@shared/privileges';
import type { AuthState } from './authState';
import { authApi } from './authApi';
import { signedOut, tokenReplaced } from './authActions';
import { readStoredToken } from './tokenStorage';

function initialAuthState(): AuthState {
  const { token, remember } = readStoredToken();
  return {
    token,
    remember,
    status: token ? 'success' : 'empty',
    profileStatus: 'idle',
    profile: null,
    privileges: null,
  };
}

export const authSlice = createSlice({
  name: 'auth',
  // A function, so the stored token is read when a store is made, not when this module loads.
  initialState: initialAuthState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(tokenReplaced, (state, action) => {
        if (state.token) state.token = action.payload;
      })
      .addCase(signedOut, (state) => {
        state.token = null;
        state.status = 'empty';
        state.profile = null;
        state.profileStatus = 'idle';
        state.privileges = null;
      })
      .addMatcher(authApi.endpoints.login.matchPending, (state) => {
        state.status = 'loading';
      })
      .addMatcher(authApi.endpoints.login.matchFulfilled, (state, action) => {
        // A second step (two-factor code or enrolment) comes first: no session yet.
        if (!('jwt' in action.payload)) {
          state.status = 'empty';
          return;
        }
        state.token = action.payload.jwt;
        state.remember = action.meta.arg.originalArgs.remember;
        state.status = 'success';
      })
      .addMatcher(authApi.endpoints.login.matchRejected, (state) => {
        state.token = null;
        state.status = 'error';
      })
      .addMatcher(authApi.endpoints.renew.matchFulfilled, (state, action) => {
        if (state.token) state.token = action.payload.jwt;
      })
      .addMatcher(authApi.endpoints.getUser.matchPending, (state) => {
        state.profileStatus = 'loading';
      })
      .addMatcher(authApi.endpoints.getUser.matchFulfilled, (state, action) => {
        state.profile = action.payload;
        state.profileStatus = 'success';
      })
      .addMatcher(authApi.endpoints.getUser.matchRejected, (state, action) => {
        // A skipped or deduplicated call is not a failure of the profile.
        if (action.meta.condition) return;
        state.profileStatus = 'error';
      })
      // Saved preferences are the profile's from the moment they are sent, so the next save builds on them.
      .addMatcher(authApi.endpoints.postUserPreferences.matchPending, (state, action) => {
        if (state.profile) state.profile.preferences = action.meta.arg.originalArgs.preferences;
      })
      .addMatcher(authApi.endpoints.getUserUiPrivileges.matchFulfilled, (state, action) => {
        state.privileges = action.payload;
      });
  },
  selectors: {
    selectToken: (auth) => auth.token,
    selectIsAuthenticated: (auth) => auth.token !== null,
    selectAuthStatus: (auth) => auth.status,
    selectProfile: (auth) => auth.profile,
    selectPrivileges: (auth) => auth.privileges,
    /** The administrator: a user of the provider (reseller -1) whose role holds the Administrator privilege, as the server decides. */
    selectIsAdmin: (auth) => auth.profile !== null && auth.profile !== undefined && isAdministrator(auth.profile.resellerInfo.id, auth.privileges ?? []),
  },
});

export const { selectToken, selectIsAuthenticated, selectAuthStatus, selectProfile, selectPrivileges, selectIsAdmin } = authSlice.selectors;
