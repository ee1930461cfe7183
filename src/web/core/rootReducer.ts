/**
 * The store's state: the API cache, the session and the preferences. Only the preferences are persisted: the token
 * has its own storage rules (remember me). The store itself is assembled in app/store.ts.
 */
import { combineReducers, type Dispatch, type ThunkDispatch, type UnknownAction } from '@reduxjs/toolkit';
import { persistReducer } from 'redux-persist';
// The ES build: Vite 8 resolves the CommonJS default of redux-persist/lib/storage to an object without getItem.
import storage from 'redux-persist/es/storage';
import { api } from './api';
import { authSlice } from './authSlice';
import { preferencesSlice } from './preferencesSlice';
import type { SessionEnv } from './session';

const persistedPreferences = persistReducer(
  { key: 'portal.preferences', version: 1, storage, whitelist: ['darkMode', 'lang', 'currency'] },
  preferencesSlice.reducer,
);

export const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  [authSlice.reducerPath]: authSlice.reducer,
  [preferencesSlice.reducerPath]: persistedPreferences,
});

export type RootState = ReturnType<typeof rootReducer>;

/** The store's dispatch: plain actions, and thunks that receive the session's environment. */
export type AppDispatch = ThunkDispatch<RootState, SessionEnv, UnknownAction> & Dispatch<UnknownAction>;
