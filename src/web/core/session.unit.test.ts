import { describe, expect, it } from 'vitest';
import { mockToken } from '../../../mocks/token';
import { renewDelayMs, tokenExpiry } from './jwt';
import { matchLocale } from './locales';
import { parsePreferences, serialisePreferences } from './preferences';
import { apiPath } from './config';

describe('token expiry', () => {
  const now = Date.UTC(2025, 0, 1);
  it('reads exp from the payload', () => {
    expect(tokenExpiry(mockToken('a', 100, now))).toBe(now / 1000 + 100);
    expect(tokenExpiry('not-a-jwt')).toBeNull();
  });

  it('renews at once with 900 s or less left, else 900 s before expiry', () => {
    expect(renewDelayMs(mockToken('a', 900, now), now)).toBe(0);
    expect(renewDelayMs(mockToken('a', 60, now), now)).toBe(0);
    expect(renewDelayMs(mockToken('a', 3600, now), now)).toBe(2700 * 1000);
    expect(renewDelayMs('opaque', now)).toBeNull();
  });
});

describe('preferences JSON', () => {
  it('reads darkMode and lang and keeps other items', () => {
    expect(parsePreferences('[{"type":"darkMode","value":"true"},{"type":"lang","value":"he"},{"type":"x","value":"1"}]')).toEqual({
      darkMode: true,
      lang: 'he',
      items: [
        { type: 'darkMode', value: 'true' },
        { type: 'lang', value: 'he' },
        { type: 'x', value: '1' },
      ],
    });
  });

  it('rejects text that is not a list, and ignores unknown languages', () => {
    expect(parsePreferences('{oops')).toBeNull();
    expect(parsePreferences('{"type":"lang"}')).toBeNull();
    expect(parsePreferences('[{"type":"lang","value":"xx"}]')?.lang).toBeUndefined();
    expect(parsePreferences('')).toEqual({ items: [] });
  });

  it('writes darkMode and lang over the previous items', () => {
    const text = serialisePreferences(
      [
        { type: 'lang', value: 'ru' },
        { type: 'currency', value: 'EUR' },
      ],
      { darkMode: false, lang: 'es' },
    );
    expect(JSON.parse(text)).toEqual([
      { type: 'currency', value: 'EUR' },
      { type: 'darkMode', value: 'false' },
      { type: 'lang', value: 'es' },
    ]);
  });
});

describe('browser language', () => {
  it('maps tags to the six locales', () => {
    expect(matchLocale('de-AT')).toBe('de');
    expect(matchLocale('zh-CN')).toBe('zh-Hans');
    expect(matchLocale('zh-TW')).toBeNull();
    expect(matchLocale('iw')).toBe('he');
    expect(matchLocale('fr-FR')).toBeNull();
  });
});

describe('API base', () => {
  it('strips the default base from schema paths', () => {
    expect(apiPath('/portal/accounts/paged')).toBe('/accounts/paged');
    expect(apiPath('/portal/accounts/')).toBe('/accounts/');
    expect(apiPath('/portalx/a')).toBe('/portalx/a');
  });
});
