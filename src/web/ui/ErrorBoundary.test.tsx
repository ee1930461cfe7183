// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { createIntl, RawIntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../i18n/en.json';
import { ErrorBoundary } from './ErrorBoundary';

afterEach(cleanup);
const intl = createIntl({ locale: 'en', messages: en });

function Broken(): never {
  throw new Error('lazy chunk refused');
}

describe('ErrorBoundary', () => {
  it('shows the generic error instead of a blank page, and recovers on a new key', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { rerender } = render(
      <RawIntlProvider value={intl}>
        <ErrorBoundary resetKey="/a">
          <Broken />
        </ErrorBoundary>
      </RawIntlProvider>,
    );
    expect(screen.getByTestId('page-error').textContent).toBe('Something went wrong. Please try again or contact support.');
    rerender(
      <RawIntlProvider value={intl}>
        <ErrorBoundary resetKey="/b">
          <p>fine</p>
        </ErrorBoundary>
      </RawIntlProvider>,
    );
    expect(screen.getByText('fine')).toBeTruthy();
    quiet.mockRestore();
  });
});
