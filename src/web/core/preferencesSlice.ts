/** Dark mode, language and currency: the only part of the store kept across page loads (by redux-persist). */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_CURRENCY, type Currency } from '@shared/currencies';
import { browserLocale, type Locale } from './locales';

export interface PreferencesState {
  darkMode: boolean;
  /** Null until chosen: the browser's language applies. */
  lang: Locale | null;
  /** Money is shown in this currency. */
  currency: Currency;
}

const initialState: PreferencesState = { darkMode: false, lang: null, currency: DEFAULT_CURRENCY };

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
    /** The user picked a default currency: saved to the profile. */
    currencyChosen(state, action: PayloadAction<Currency>) {
      state.currency = action.payload;
    },
    /** The profile arrived with stored preferences: applied, not saved again. */
    preferencesLoaded(state, action: PayloadAction<Partial<PreferencesState>>) {
      if (action.payload.darkMode !== undefined) state.darkMode = action.payload.darkMode;
      if (action.payload.lang !== undefined) state.lang = action.payload.lang;
      if (action.payload.currency !== undefined) state.currency = action.payload.currency;
    },
  },
  selectors: {
    selectDarkMode: (prefs) => prefs.darkMode,
    selectLocale: (prefs): Locale => prefs.lang ?? browserLocale(),
    // A state kept from before the currency existed has none.
    selectCurrency: (prefs): Currency => prefs.currency ?? DEFAULT_CURRENCY,
  },
});

export const { darkModeChosen, languageChosen, currencyChosen, preferencesLoaded } = preferencesSlice.actions;
export const { selectDarkMode, selectLocale, selectCurrency } = preferencesSlice.selectors;
