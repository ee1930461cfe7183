import { useCallback, useMemo } from 'react';
import { useStore } from 'react-redux';
import { useSavePreferencesMutation } from '@web/core/authApi';
import { useAppSelector } from '@web/core/hooks';
import type { RootState } from '@web/core/rootReducer';
import { readGridLayout, writeGridLayout, type GridLayout } from './gridPreferences';

/** A list's saved layout and a function that saves a new one to the user's profile (undefined resets it). */
export function useGridLayout(entity: string): [GridLayout | undefined, (layout: GridLayout | undefined) => void] {
  const preferences = useAppSelector((s) => s.auth.profile?.preferences);
  const store = useStore<RootState>();
  const [save] = useSavePreferencesMutation();
  const layout = useMemo(() => readGridLayout(preferences, entity), [preferences, entity]);
  const setLayout = useCallback(
    (next: GridLayout | undefined) => {
      // Read at the moment of saving: another save may have changed the preferences since the last render.
      const { profile } = store.getState().auth;
      if (!profile) return; // nobody to save it for yet
      const current = profile.preferences;
      void save({ preferences: writeGridLayout(current, entity, next) });
    },
    [entity, save, store],
  );
  return [layout, setLayout];
}
