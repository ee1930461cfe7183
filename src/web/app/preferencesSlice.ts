/** Dark mode and language: the only part of the store kept across page loads (by redux-persist). */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { browserLocale, type Locale } from './locales';

export interface PreferencesState {
  darkMode: boolean;
  /** Null until chosen: the browser's language applies. */
  lang: Locale | null;
}

const initialState: PreferencesState = { darkMode: false, lang: null };

export const preferencesSlice = createSlice({
  name: 'preferences',
  initialState,
  reducers: {
    /** The user flipped the switch: saved to the profile. */
    darkModeChosen(state, action: PayloadAction<boolean>) {
      state.darkMode = action.payload;
    },
    /** The user picked a language: saved to the profile. */
    languageChosen(state, action: PayloadAction<Locale>) {
      state.lang = action.payload;
    },
    /** The profile arrived with stored preferences: applied, not saved again. */
    preferencesLoaded(state, action: PayloadAction<Partial<PreferencesState>>) {
      if (action.payload.darkMode !== undefined) state.darkMode = action.payload.darkMode;
      if (action.payload.lang !== undefined) state.lang = action.payload.lang;
    },
  },
  selectors: {
    selectDarkMode: (prefs) => prefs.darkMode,
    selectLocale: (prefs): Locale => prefs.lang ?? browserLocale(),
  },
});

export const { darkModeChosen, languageChosen, preferencesLoaded } = preferencesSlice.actions;
export const { selectDarkMode, selectLocale } = preferencesSlice.selectors;
