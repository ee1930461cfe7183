/** The auth slice's state, declared apart from the slice so the base query can read the token without a cycle. */
import type { PrivilegeItem } from '@shared/privileges';
import type { UserProfile } from './userTypes';

export type AuthStatus = 'empty' | 'loading' | 'success' | 'error';
export type LoadStatus = 'idle' | 'loading' | 'success' | 'error';

export interface AuthState {
  token: string | null;
  /** Whether the token is kept in local storage (true) or session storage. */
  remember: boolean;
  status: AuthStatus;
  profileStatus: LoadStatus;
  profile: UserProfile | null;
  /** Null until the server has answered: the side menu waits for it. */
  privileges: PrivilegeItem[] | null;
}

function hasAuth(state: unknown): state is { auth: AuthState } {
  return typeof state === 'object' && state !== null && 'auth' in state;
}

/** Typed read of the token from whatever `getState()` returns inside the API layer. */
export function tokenFromState(state: unknown): string | null {
  return hasAuth(state) ? state.auth.token : null;
}
