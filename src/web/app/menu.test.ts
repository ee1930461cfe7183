import { describe, expect, it } from 'vitest';
import { PRIVILEGE_CATALOGUE } from '@shared/privileges';
import { MENU_ENTRIES, visibleMenuEntries } from './menu';

const everyPath = new Set(MENU_ENTRIES.map((e) => e.path));

describe('side menu table', () => {
  it('follows the specification order', () => {
    expect(MENU_ENTRIES.map((e) => e.id)).toEqual([
      'Dashboard', 'Subscribers', 'Resellers', 'Accounts', 'SimOrders', 'Profiles', 'LocationZones',
      'DestinationZones', 'Inventory', 'Templates', 'Packages', 'Plans', 'InternationalPlans', 'Pricing',
      'AssignSubscribers', 'Jobs', 'Users', 'Roles', 'Documentation',
    ]);
  });

  it('keeps the specification\'s entries in their order, the jobs entry after the screens that start jobs', () => {
    const specified = MENU_ENTRIES.map((e) => e.id).filter((id) => id !== 'Jobs');
    expect(specified).toEqual([
      'Dashboard', 'Subscribers', 'Resellers', 'Accounts', 'SimOrders', 'Profiles', 'LocationZones',
      'DestinationZones', 'Inventory', 'Templates', 'Packages', 'Plans', 'InternationalPlans', 'Pricing',
      'AssignSubscribers', 'Users', 'Roles', 'Documentation',
    ]);
    const ids = MENU_ENTRIES.map((e) => e.id);
    expect(ids.indexOf('Jobs')).toBe(ids.indexOf('AssignSubscribers') + 1);
  });

  it('shows the background jobs to whoever can start one (Subscribers), on the routed jobs screen', () => {
    const subscribers = [{ privilege: 'Subscribers', subPrivileges: [] }];
    expect(visibleMenuEntries(subscribers, new Set(['/subscribers', '/jobs'])).map((e) => [e.id, e.path])).toEqual([['Subscribers', '/subscribers'], ['Jobs', '/jobs']]);
    // Moving subscribers alone starts no job; nor does any other privilege.
    expect(visibleMenuEntries([{ privilege: 'MoveSubscribers', subPrivileges: [] }, { privilege: 'Users', subPrivileges: [] }], everyPath).map((e) => e.id)).toEqual(['AssignSubscribers', 'Users']);
  });

  it('names only privileges of the catalogue', () => {
    const known = new Set(PRIVILEGE_CATALOGUE.map((p) => p.privilege));
    for (const entry of MENU_ENTRIES) for (const p of entry.privileges) expect(known).toContain(p);
  });

  it('shows Profiles once for either of its privileges', () => {
    const granted = [
      { privilege: 'AllowedLists', subPrivileges: [] },
      { privilege: 'RoamingProfile', subPrivileges: [] },
    ];
    expect(visibleMenuEntries(granted, everyPath).map((e) => e.id)).toEqual(['Profiles']);
  });

  it('shows Packages only with the Sales sub-privilege', () => {
    expect(visibleMenuEntries([{ privilege: 'PrePaidPackages', subPrivileges: [] }], everyPath)).toEqual([]);
    expect(
      visibleMenuEntries([{ privilege: 'PrePaidPackages', subPrivileges: ['Sales'] }], everyPath).map((e) => e.id),
    ).toEqual(['Packages']);
  });

  it('leaves out screens without a route', () => {
    const granted = [
      { privilege: 'Users', subPrivileges: [] },
      { privilege: 'Accounts', subPrivileges: [] },
    ];
    expect(visibleMenuEntries(granted, new Set(['/', '/accounts'])).map((e) => e.id)).toEqual(['Accounts']);
  });
});
