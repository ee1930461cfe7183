/** Signing out, shared by the sign-out button, a 401 and a failed profile load. */
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { api } from './api';
import { signedOut } from './authActions';
import type { RootState } from './rootReducer';

/** What the session needs from the page; tests replace it so nothing really reloads. */
export interface SessionEnv {
  reload: () => void;
  /** Goes to `/` so the page that comes back after the reload is the dashboard, not the last screen. */
  navigateHome: () => void;
  now: () => number;
}

export type AppThunk<R = void> = ThunkAction<R, RootState, SessionEnv, UnknownAction>;

export function browserSessionEnv(): SessionEnv {
  return {
    reload: () => window.location.reload(),
    navigateHome: () => {
      window.location.hash = '#/';
    },
    now: () => Date.now(),
  };
}

/** Clears token, profile and every cached answer, then reloads so no screen keeps the previous user's data. */
export const signOut = (): AppThunk => (dispatch, _getState, env) => {
  dispatch(signedOut());
  dispatch(api.util.resetApiState());
  env.reload();
};
