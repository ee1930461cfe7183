import { mayWriteRows, type EntitySchema, type TenantCaller } from '@shared/schema';
import { selectIsAdmin, selectProfile } from './authSlice';
import { useAppSelector } from './hooks';

/** The signed-in user as the tenant rules see it (its reseller, its account, administrator or not); undefined until the profile loads. */
export function useCaller(): TenantCaller | undefined {
  const profile = useAppSelector(selectProfile);
  const isAdmin = useAppSelector(selectIsAdmin);
  return profile ? { resellerId: profile.resellerInfo.id, accountId: profile.accountId ?? null, isAdmin } : undefined;
}

/**
 * Whether the signed-in user may write rows of the entity at all (see `mayWriteRows`), as the server decides; while
 * the profile loads, as if it may.
 */
export function useMayWriteRows(schema: EntitySchema): boolean {
  const caller = useCaller();
  return caller === undefined || mayWriteRows(schema, caller);
}
