/** One `{ type, value }` item of the user's preferences, read from the profile and saved to the server. */
import { useCallback, useMemo } from 'react';
import { useStore } from 'react-redux';
import { usePostUserPreferencesMutation } from '@web/core/authApi';
import { useAppSelector } from '@web/core/hooks';
import { parsePreferences } from '@web/core/preferences';
import type { RootState } from '@web/core/rootReducer';

/** The item's value (undefined when unset) and a function that saves a new one (undefined removes it), other items kept. */
export function usePreference(type: string): [string | undefined, (value: string | undefined) => void] {
  const preferences = useAppSelector((s) => s.auth.profile?.preferences);
  const store = useStore<RootState>();
  const [save] = usePostUserPreferencesMutation();
  const value = useMemo(() => parsePreferences(preferences)?.items.find((i) => i.type === type)?.value, [preferences, type]);
  const setValue = useCallback(
    (next: string | undefined) => {
      // Read at the moment of saving: another save may have changed the preferences since the last render.
      const { profile } = store.getState().auth;
      if (!profile) return;
      const items = (parsePreferences(profile.preferences)?.items ?? []).filter((i) => i.type !== type);
      void save({ preferences: JSON.stringify(next === undefined ? items : [...items, { type, value: next }]) });
    },
    [type, save, store],
  );
  return [value, setValue];
}
