/**
 * The store factory. Tests build their own store through it; the app builds one in main.tsx.
 */
import { configureStore } from '@reduxjs/toolkit';
import { FLUSH, PAUSE, PERSIST, PURGE, REGISTER, REHYDRATE } from 'redux-persist';
import { api } from '@web/core/api';
import { sessionRestored } from '@web/core/authActions';
import { rootReducer, type AppDispatch, type RootState } from '@web/core/rootReducer';
import { browserSessionEnv, type SessionEnv } from '@web/core/session';
import { createSessionListeners } from '@web/core/sessionListeners';

export type { AppDispatch, RootState };

export function makeStore(preloadedState?: Partial<RootState>, env: Partial<SessionEnv> = {}) {
  const session = { ...browserSessionEnv(), ...env };
  // Several calls can fail with 401 at once; the page must reload only once.
  let reloading = false;
  const sessionEnv: SessionEnv = {
    ...session,
    reload: () => {
      if (reloading) return;
      reloading = true;
      session.reload();
    },
  };
  const listeners = createSessionListeners(sessionEnv);
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        thunk: { extraArgument: sessionEnv },
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      })
        .prepend(listeners.middleware)
        .concat(api.middleware),
  });
  if (store.getState().auth.token) store.dispatch(sessionRestored());
  // The hooks of core type dispatch without seeing this store: its dispatch must be one they accept.
  return store satisfies { dispatch: AppDispatch };
}

export type AppStore = ReturnType<typeof makeStore>;
