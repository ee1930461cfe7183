import { describe, expect, it } from 'vitest';
import { ADMIN_ONLY, opensScreen, SIGNED_IN, type PrivilegeItem } from './privileges';

const granted: PrivilegeItem[] = [
  { privilege: 'Subscribers', subPrivileges: [] },
  { privilege: 'Search', subPrivileges: ['Subscribers'] },
];

describe('whether a screen opens for a user', () => {
  it('opens a screen whose privilege the user holds, and no other', () => {
    expect(opensScreen(granted, 'Subscribers', false)).toBe(true);
    expect(opensScreen(granted, 'Accounts', false)).toBe(false);
    // A sub-privilege of the same name is not the privilege.
    expect(opensScreen([{ privilege: 'Search', subPrivileges: ['Accounts'] }], 'Accounts', false)).toBe(false);
  });

  it('opens an administrator screen for the administrator alone, whatever else is held', () => {
    expect(opensScreen(granted, ADMIN_ONLY, true)).toBe(true);
    expect(opensScreen(granted, ADMIN_ONLY, false)).toBe(false);
    // Holding the privilege's name is not being the administrator (a reseller's role cannot make one).
    expect(opensScreen([{ privilege: ADMIN_ONLY, subPrivileges: [] }], ADMIN_ONLY, false)).toBe(false);
  });

  it('opens a screen for every signed-in user', () => {
    expect(opensScreen([], SIGNED_IN, false)).toBe(true);
  });
});
