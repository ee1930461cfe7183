/**
 * The robot check of the join form: the ALTCHA widget, which fetches a proof-of-work challenge from the server
 * and solves it in the browser. It reports the payload once it is solved; the form checks it with the server.
 * Tests replace this module: the widget's proof of work needs workers and Web Crypto.
 */
import type { AltchaWidgetElement } from 'altcha';
import type {} from 'altcha/types/react';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { useIntl } from 'react-intl';
import { API_BASE } from '@web/core/config';
import type { Locale } from '@web/core/locales';

export interface RobotCheckHandle {
  /** Back to unverified, so the visitor solves a new challenge. */
  reset(): void;
}

export type RobotCheckState = 'unverified' | 'verifying' | 'verified' | 'expired' | 'error' | 'code';

export interface RobotCheckProps {
  ref?: Ref<RobotCheckHandle>;
  /** The widget solved a challenge; called once per solution. */
  onVerified(payload: string): void;
  /** Every change of the widget's state (verifying, expired, reset...). */
  onStateChange?(state: RobotCheckState): void;
}

/** The widget's language names for the portal's locales. */
const WIDGET_LANGUAGE: Record<Locale, string> = { en: 'en', ru: 'ru', de: 'de', he: 'he', 'zh-Hans': 'zh-cn', es: 'es-es' };

export const ROBOT_CHECK_CHALLENGE_URL = `${API_BASE}/join/challenge`;

export function RobotCheck({ ref, onVerified, onStateChange }: RobotCheckProps) {
  const intl = useIntl();
  const element = useRef<AltchaWidgetElement>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  // The latest callbacks, so the listeners are attached once per element.
  const callbacks = useRef({ onVerified, onStateChange });
  useEffect(() => {
    callbacks.current = { onVerified, onStateChange };
  });

  useEffect(() => {
    import('./altchaWidget').catch((error: unknown) => {
      console.error('The robot check could not be loaded', error);
      setLoadFailed(true);
    });
  }, []);

  useEffect(() => {
    const widget = element.current;
    if (!widget) return undefined;
    // Listeners only: the server check runs in the form's handler, never in an effect that may run twice.
    const verified = (event: Event) => {
      const payload = (event as CustomEvent<{ payload?: unknown }>).detail?.payload;
      if (typeof payload === 'string' && payload) callbacks.current.onVerified(payload);
    };
    const stateChange = (event: Event) => {
      const state = (event as CustomEvent<{ state?: RobotCheckState }>).detail?.state;
      if (state) callbacks.current.onStateChange?.(state);
    };
    widget.addEventListener('verified', verified);
    widget.addEventListener('statechange', stateChange);
    return () => {
      widget.removeEventListener('verified', verified);
      widget.removeEventListener('statechange', stateChange);
    };
  }, []);

  useImperativeHandle(ref, () => ({ reset: () => element.current?.reset?.() }), []);

  if (loadFailed) return <span className="portal-robot-check-error">{intl.formatMessage({ id: 'app.error.generic' })}</span>;
  return (
    <altcha-widget
      ref={element}
      challenge={ROBOT_CHECK_CHALLENGE_URL}
      name="altcha"
      language={WIDGET_LANGUAGE[intl.locale as Locale] ?? 'en'}
      data-testid="robot-check"
    />
  );
}
