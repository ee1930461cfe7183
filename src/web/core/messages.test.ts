import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { hasMessage, messageOr } from './messages';

const intl = createIntl({ locale: 'en', messages: { 'status.active': 'Active', greeting: 'Hello {name}' } });

describe('messageOr', () => {
  it('shows the message when the catalogue has the id', () => {
    expect(messageOr(intl, 'status.active', 'active')).toBe('Active');
    expect(messageOr(intl, 'greeting', 'hi', { name: 'Ann' })).toBe('Hello Ann');
  });

  it('shows the fallback, else the id, when the catalogue lacks it', () => {
    expect(messageOr(intl, 'status.frozen', 'frozen')).toBe('frozen');
    expect(messageOr(intl, 'status.frozen')).toBe('status.frozen');
    expect(hasMessage(intl, 'toString')).toBe(false);
  });
});
