// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';

const api = setupMockApi();

/** The join view with the real `<altcha-widget>`, once its element is defined. */
async function joinWithWidget() {
  const rendered = renderWithProviders(<AppRoutes />, { route: '/login', reactStrictMode: true });
  await rendered.user.click(await screen.findByTestId('show-join'));
  await waitFor(() => expect(customElements.get('altcha-widget')).toBeTruthy());
  const widget = document.querySelector('altcha-widget');
  if (!widget) throw new Error('no altcha-widget');
  return { ...rendered, widget };
}

/** What the widget does when it has solved a challenge. */
const solved = (widget: Element, payload: string) => widget.dispatchEvent(new CustomEvent('verified', { detail: { payload } }));

describe('robot check widget', () => {
  it('asks the join challenge endpoint and fetches nothing before the visitor starts it', async () => {
    const { widget } = await joinWithWidget();
    expect(widget.getAttribute('challenge')).toBe('/portal/join/challenge');
    expect(widget.hasAttribute('challengeurl')).toBe(false);
    expect(api.requests('/join/challenge')).toHaveLength(0);
  });

  it('checks each solution with the server once, from the widget’s event', async () => {
    const { widget } = await joinWithWidget();
    solved(widget, 'solution-a');
    solved(widget, 'solution-a');
    await waitFor(() => expect(api.requests('/join/recaptcha', 'POST')).toHaveLength(1));
    expect(api.requests('/join/recaptcha')[0].body).toEqual({ token: 'solution-a' });
    expect(screen.queryByTestId('robot-check-error')).toBeNull();
  });

  it('resets the widget when the server answers false', async () => {
    const { widget } = await joinWithWidget();
    // The element's own reset needs its inner component; the form only has to call it.
    const reset = vi.fn();
    Object.defineProperty(widget, 'reset', { value: reset, configurable: true });
    solved(widget, 'refused-a');
    expect((await screen.findByTestId('robot-check-error')).textContent).toBe('The robot check failed. Please try again.');
    expect(reset).toHaveBeenCalledTimes(1);
  });
});
