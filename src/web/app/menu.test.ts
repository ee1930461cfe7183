import { describe, expect, it } from 'vitest';
import { PRIVILEGE_CATALOGUE } from '@shared/privileges';
import type { EntitySchema } from '@shared/schema';
import { ENTITY_SCHEMAS } from '@web/core/schemas';
import { buildMenu, MENU_ENTRIES, MENU_ICONS, SPECIFIED_MENU_ENTRIES, visibleMenuEntries } from './menu';

const everyPath = new Set(MENU_ENTRIES.map((e) => e.path));

describe('side menu table', () => {
  it('follows the specification order', () => {
    expect(SPECIFIED_MENU_ENTRIES.map((e) => e.id)).toEqual([
      'Dashboard',
      'Subscribers',
      'Resellers',
      'Accounts',
      'SimOrders',
      'Profiles',
      'LocationZones',
      'DestinationZones',
      'Inventory',
      'Templates',
      'Packages',
      'Plans',
      'InternationalPlans',
      'Pricing',
      'AssignSubscribers',
      'Jobs',
      'Users',
      'Roles',
      'Documentation',
    ]);
  });

  it("keeps the specification's entries in their order, the jobs entry after the screens that start jobs", () => {
    const specified = SPECIFIED_MENU_ENTRIES.map((e) => e.id).filter((id) => id !== 'Jobs');
    expect(specified).toEqual([
      'Dashboard',
      'Subscribers',
      'Resellers',
      'Accounts',
      'SimOrders',
      'Profiles',
      'LocationZones',
      'DestinationZones',
      'Inventory',
      'Templates',
      'Packages',
      'Plans',
      'InternationalPlans',
      'Pricing',
      'AssignSubscribers',
      'Users',
      'Roles',
      'Documentation',
    ]);
    const ids = SPECIFIED_MENU_ENTRIES.map((e) => e.id);
    expect(ids.indexOf('Jobs')).toBe(ids.indexOf('AssignSubscribers') + 1);
  });

  it("keeps the specified entries in their order with the schemas' entries among them", () => {
    const specified = new Set(SPECIFIED_MENU_ENTRIES.map((e) => e.id));
    expect(MENU_ENTRIES.filter((e) => specified.has(e.id))).toEqual(SPECIFIED_MENU_ENTRIES);
  });

  it.each(ENTITY_SCHEMAS.filter((s) => s['x-entity'].menu).map((s) => [s['x-entity'].name, s] as const))(
    'places the entry of %s after the one it names, with a known icon, on its list route',
    (name, schema) => {
      const menu = schema['x-entity'].menu!;
      const ids = MENU_ENTRIES.map((e) => e.id);
      expect(ids, `x-entity.menu.after of ${name}`).toContain(menu.after);
      expect(Object.keys(MENU_ICONS), `x-entity.menu.icon of ${name}`).toContain(menu.icon);
      expect(ids.indexOf(name)).toBeGreaterThan(ids.indexOf(menu.after));
      const entry = MENU_ENTRIES.find((e) => e.id === name)!;
      expect(entry).toMatchObject({
        path: schema['x-entity'].routes!.list,
        messageId: schema.title,
        privileges: menu.privileges ?? [schema['x-entity'].privilege],
      });
      expect(entry.icon).toBe(MENU_ICONS[menu.icon]);
    },
  );

  it("places schema entries after a named entry, after each other in the schemas' order, unknown anchors last", () => {
    const schema = (name: string, after: string) =>
      ({
        title: `entity.${name}.title`,
        'x-entity': { name, privilege: 'Inventory', routes: { list: `/${name}` }, menu: { after, icon: 'tag' } },
      }) as unknown as EntitySchema;
    const menu = buildMenu(SPECIFIED_MENU_ENTRIES, [schema('a', 'Inventory'), schema('b', 'Inventory'), schema('c', 'a'), schema('d', 'Nowhere')]).map(
      (e) => e.id,
    );
    expect(menu.slice(menu.indexOf('Inventory'), menu.indexOf('Inventory') + 5)).toEqual(['Inventory', 'a', 'c', 'b', 'Templates']);
    expect(menu.at(-1)).toBe('d');
  });

  it('shows the background jobs to whoever can start one (Subscribers), on the routed jobs screen', () => {
    const subscribers = [{ privilege: 'Subscribers', subPrivileges: [] }];
    expect(visibleMenuEntries(subscribers, new Set(['/subscribers', '/jobs'])).map((e) => [e.id, e.path])).toEqual([
      ['Subscribers', '/subscribers'],
      ['Jobs', '/jobs'],
    ]);
    // Moving subscribers alone starts no job; nor does any other privilege.
    expect(
      visibleMenuEntries(
        [
          { privilege: 'MoveSubscribers', subPrivileges: [] },
          { privilege: 'Users', subPrivileges: [] },
        ],
        everyPath,
      ).map((e) => e.id),
    ).toEqual(['AssignSubscribers', 'Users']);
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
    expect(visibleMenuEntries([{ privilege: 'PrePaidPackages', subPrivileges: ['Sales'] }], everyPath).map((e) => e.id)).toEqual(['Packages']);
  });

  it('leaves out screens without a route', () => {
    const granted = [
      { privilege: 'Users', subPrivileges: [] },
      { privilege: 'Accounts', subPrivileges: [] },
    ];
    expect(visibleMenuEntries(granted, new Set(['/', '/accounts'])).map((e) => e.id)).toEqual(['Accounts']);
  });
});
