import { useAppSelector } from '@web/core/hooks';
import { selectIsAdmin } from '@web/core/authSlice';

/** The admin is the user of the reseller whose id is -1; false until the profile has loaded. */
export function useIsAdmin(): boolean {
  return useAppSelector(selectIsAdmin);
}
