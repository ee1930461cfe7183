import { useAppSelector } from './hooks';
import { selectIsAdmin } from './authSlice';

/** The admin is the user of the reseller whose id is -1; false until the profile has loaded. */
export function useIsAdmin(): boolean {
  return useAppSelector(selectIsAdmin);
}
