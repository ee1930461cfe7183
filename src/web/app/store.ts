/**
 * The store factory. Tests build their own store through it; the app builds one in main.tsx.
 * Only the preferences are persisted: the token has its own storage rules (remember me).
 */
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { FLUSH, PAUSE, PERSIST, PURGE, REGISTER, REHYDRATE, persistReducer } from 'redux-persist';
// The ES build: Vite 8 resolves the CommonJS default of redux-persist/lib/storage to an object without getItem.
import storage from 'redux-persist/es/storage';
import { api } from './api';
import { sessionRestored } from './authActions';
import { authSlice } from './authSlice';
import { preferencesSlice } from './preferencesSlice';
import { browserSessionEnv, type SessionEnv } from './session';
import { createSessionListeners } from './sessionListeners';

const persistedPreferences = persistReducer(
  { key: 'portal.preferences', version: 1, storage, whitelist: ['darkMode', 'lang', 'currency'] },
  preferencesSlice.reducer,
);

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  [authSlice.reducerPath]: authSlice.reducer,
  [preferencesSlice.reducerPath]: persistedPreferences,
});

export type RootState = ReturnType<typeof rootReducer>;

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
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
