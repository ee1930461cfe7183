/**
 * The profiles screen keeps both tabs in one address: `tab` picks the list, and a search is written the way the
 * top search popup writes it, the filter's name as the query key (`/profiles?tab=1&reference=EU&page=1`). This
 * translates between that address and the engine list's own `searchKey`/`searchBy` parameters.
 */
import type { EntitySchema } from '@shared/schema';
import type { ListAddress } from '@web/engine/EntityListPage';

export type ProfilesTab = '0' | '1';

/** Query keys the popup uses where they differ from the schema's filter names. */
const QUERY_KEYS: Record<string, Record<string, string>> = {
  roamingProfile: { id: 'profileId' },
};

/** Parameters of the list other than its search, which pass through unchanged. */
const PASSED = ['page', 'sortBy', 'sortDir'];

export function profilesAddress(schema: EntitySchema, tab: ProfilesTab): ListAddress {
  const keys = QUERY_KEYS[schema['x-entity'].name] ?? {};
  const queryKey = (by: string) => keys[by] ?? by;
  const filters = schema['x-list'].search.map((f) => f.by);
  return {
    read(address) {
      const list = new URLSearchParams();
      for (const name of PASSED) {
        const value = address.get(name);
        if (value !== null) list.set(name, value);
      }
      const by = filters.find((f) => address.get(queryKey(f))?.trim());
      if (by) {
        list.set('searchBy', by);
        list.set('searchKey', address.get(queryKey(by)) ?? '');
      } else {
        // A filter chosen before any text is typed.
        const chosen = address.get('searchBy');
        if (chosen) list.set('searchBy', chosen);
      }
      return list;
    },
    write(list) {
      const address = new URLSearchParams({ tab });
      const searchKey = list.get('searchKey');
      const searchBy = list.get('searchBy');
      if (searchKey && searchBy) address.set(queryKey(searchBy), searchKey);
      else if (searchBy) address.set('searchBy', searchBy);
      for (const name of PASSED) {
        const value = list.get(name);
        if (value !== null) address.set(name, value);
      }
      return address;
    },
  };
}
