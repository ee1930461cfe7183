/**
 * The session's side effects, kept out of reducers: token storage, the renewal timer, signing out on a 401,
 * and loading and saving preferences.
 */
import { createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { authApi } from './authApi';
import { pricingPlansApi } from './pricingPlansApi';
import { sessionRestored, unauthorized } from './authActions';
import { renewDelayMs } from './jwt';
import { parsePreferences, serialisePreferences } from './preferences';
import { currencyChosen, darkModeChosen, languageChosen, preferencesLoaded } from './preferencesSlice';
import { signOut, type SessionEnv } from './session';
import type { AppDispatch, RootState } from './rootReducer';
import { writeStoredToken } from './tokenStorage';
import { writeOpeningHint } from './openingHint';
import { selectIsAdmin } from './authSlice';

/** A failed renewal is retried this often while the token is still valid. */
const RENEW_RETRY_MS = 60_000;

export function createSessionListeners(env: SessionEnv) {
  const listeners = createListenerMiddleware({ extra: env });
  const startListening = listeners.startListening.withTypes<RootState, AppDispatch, SessionEnv>();

  startListening({
    predicate: (_action, current, previous) => current.auth.token !== previous.auth.token || current.auth.remember !== previous.auth.remember,
    effect: (_action, { getState }) => {
      const { token, remember } = getState().auth;
      writeStoredToken({ token, remember });
    },
  });

  // What decides how a screen opens, kept for the next page load (see openingHint.ts); gone when signed out.
  startListening({
    predicate: (_action, current, previous) =>
      current.auth.token !== previous.auth.token || current.auth.profile !== previous.auth.profile || current.auth.privileges !== previous.auth.privileges,
    effect: (_action, { getState }) => {
      const state = getState();
      const { token, remember, profile, privileges } = state.auth;
      if (!token) writeOpeningHint(null, remember);
      else if (profile && privileges)
        writeOpeningHint(token, remember, { privileges, isAdmin: selectIsAdmin(state), preferences: profile.preferences ?? null });
    },
  });

  // Each new token (sign-in, renewal, start-up) re-arms the timer; cancelling the previous run drops its timer,
  // and signing out (token gone) leaves none.
  startListening({
    predicate: (action, current, previous) => sessionRestored.match(action) || current.auth.token !== previous.auth.token,
    effect: async (_action, listenerApi) => {
      listenerApi.cancelActiveListeners();
      const token = listenerApi.getState().auth.token;
      if (!token) return;
      const delay = renewDelayMs(token, listenerApi.extra.now());
      if (delay === null) return;
      await listenerApi.delay(delay);
      for (;;) {
        const result = await listenerApi.dispatch(authApi.endpoints.renew.initiate());
        // Success changes the token, which starts a new run; a 401 signs out through the base query.
        if (!('error' in result) || result.error === undefined) return;
        if ('status' in result.error && result.error.status === 401) return;
        await listenerApi.delay(RENEW_RETRY_MS);
      }
    },
  });

  startListening({
    actionCreator: unauthorized,
    effect: (_action, { dispatch, extra }) => {
      extra.navigateHome();
      dispatch(signOut());
    },
  });

  startListening({
    matcher: authApi.endpoints.getUser.matchRejected,
    effect: (action, { dispatch }) => {
      if (action.meta.condition) return;
      const status = action.payload?.status;
      // 401 is handled above; an unreachable server is not a reason to end the session.
      if (status === undefined || status === 401 || status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR') return;
      dispatch(signOut());
    },
  });

  // Once the profile is in, the plan lists follow (privileges and the logo load with the shell that shows them),
  // so any screen naming a plan finds them in the cache.
  startListening({
    matcher: authApi.endpoints.getUser.matchFulfilled,
    effect: (_action, { dispatch }) => {
      void dispatch(pricingPlansApi.endpoints.getPricingPlans.initiate(undefined, { subscribe: false }));
    },
  });

  startListening({
    matcher: authApi.endpoints.getUser.matchFulfilled,
    effect: (action, { dispatch }) => {
      const parsed = parsePreferences(action.payload.preferences);
      if (!parsed) {
        console.warn('Ignoring preferences that are not a JSON list of {type, value} items.');
        return;
      }
      dispatch(preferencesLoaded({ darkMode: parsed.darkMode, lang: parsed.lang, currency: parsed.currency }));
    },
  });

  startListening({
    matcher: isAnyOf(darkModeChosen, languageChosen, currencyChosen),
    effect: (_action, { dispatch, getState }) => {
      const { auth, preferences } = getState();
      if (!auth.token) return;
      const previous = parsePreferences(auth.profile?.preferences)?.items ?? [];
      const text = serialisePreferences(previous, {
        darkMode: preferences.darkMode,
        lang: preferences.lang,
        currency: preferences.currency,
      });
      void dispatch(authApi.endpoints.postUserPreferences.initiate({ preferences: text }));
    },
  });

  return listeners;
}
