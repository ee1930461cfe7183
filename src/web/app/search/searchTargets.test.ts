import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SEARCH_PAGES } from '@shared/privileges';
import { adminSettingsLinks } from '../adminMenus';
import { allowedTargets, filtersFor, SEARCH_TARGETS, searchAddress, targetForLocation } from './searchTargets';

const en: Record<string, string> = JSON.parse(readFileSync(new URL('../../../../i18n/en.json', import.meta.url), 'utf8'));
const target = (page: string) => SEARCH_TARGETS.find((t) => t.page === page)!;

describe('search popup targets', () => {
  it('offers every Search sub-privilege, in the specification order', () => {
    expect(SEARCH_TARGETS.map((t) => t.page)).toEqual([...SEARCH_PAGES]);
    expect(allowedTargets(['Users', 'Accounts']).map((t) => t.page)).toEqual(['Accounts', 'Users']);
  });

  it('lists the filters of the specification, reseller filters for admins only', () => {
    expect(filtersFor(target('Accounts'), false)).toEqual(['multi', 'accountId', 'name', 'address', 'city']);
    expect(filtersFor(target('Accounts'), true)).toEqual(['multi', 'accountId', 'name', 'address', 'city', 'resellerId', 'resellerName']);
    expect(filtersFor(target('Subscribers'), true)).toEqual([
      'multi',
      'subscriberId',
      'realImsi',
      'sponsorImsi',
      'iccid',
      'msisdn',
      'accountId',
      'accountName',
      'subscriberName',
      'resellerName',
      'network',
      'resellerId',
    ]);
    expect(filtersFor(target('Resellers'), true)).toEqual(['name', 'id', 'accountId']);
    expect(filtersFor(target('RoamingProfiles'), false)).toEqual(['name', 'reference', 'profileId', 'allowedListUuid', 'nameAndReference', 'sponsorName']);
    expect(filtersFor(target('AllowedLists'), false)).toEqual(['name', 'uuid', 'reference', 'sponsorName']);
  });

  it('goes to the list with the trimmed text, the filter and page 1', () => {
    expect(searchAddress(target('Accounts'), '  Acme  ', 'name')).toBe('/accounts?searchKey=Acme&searchBy=name&page=1');
    expect(searchAddress(target('Subscribers'), '8997 01', 'iccid')).toBe('/subscribers?searchKey=8997+01&searchBy=iccid&page=1');
    expect(searchAddress(target('Accounts'), '   ', 'name')).toBe('/accounts?page=1');
  });

  it('uses the filter as the query key on the profiles screen, with its tab', () => {
    expect(searchAddress(target('RoamingProfiles'), 'EU', 'reference')).toBe('/profiles?tab=1&reference=EU&page=1');
    expect(searchAddress(target('AllowedLists'), 'x1', 'uuid')).toBe('/profiles?tab=0&uuid=x1&page=1');
  });

  it('starts on the list being looked at', () => {
    const all = allowedTargets(SEARCH_PAGES);
    expect(targetForLocation(all, '/users', '')?.page).toBe('Users');
    expect(targetForLocation(all, '/profiles', '?tab=1')?.page).toBe('RoamingProfiles');
    expect(targetForLocation(all, '/profiles', '')?.page).toBe('AllowedLists');
    expect(targetForLocation(all, '/', '')?.page).toBe('Subscribers');
  });

  it('has a message for every page, filter and settings link', () => {
    const ids = [
      ...SEARCH_TARGETS.map((t) => `searchPopup.page.${t.page}`),
      ...SEARCH_TARGETS.flatMap((t) => filtersFor(t, true).map((by) => (by === 'multi' ? `searchPopup.by.multi.${t.page}` : `searchPopup.by.${by}`))),
      ...adminSettingsLinks(-1).map((l) => `topbar.settings.${l.id}`),
    ];
    expect(ids.filter((id) => !(id in en))).toEqual([]);
  });
});
