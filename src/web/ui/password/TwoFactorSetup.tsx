/** Pieces of two-factor sign-in shared by the security dialog and the sign-in screen. */
import { LabelledInput } from '../LabelledInput';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { apiErrorOf, httpStatus, type QueryError } from '@web/core/apiErrors';
import './twoFactor.css';
import type { TwoFactorEnrolment } from '@web/core/twoFactorApi';

/** The QR code of the otpauth:// address, and the key for typing in by hand. */
export function TwoFactorSetup({ enrolment }: { enrolment: TwoFactorEnrolment }) {
  const intl = useIntl();
  const [image, setImage] = useState<string>();
  useEffect(() => {
    let live = true;
    // Dark on white whatever the theme: authenticator cameras read that best.
    // The QR code library is fetched when a code is shown, not with the sign-in page.
    void import('qrcode')
      .then((QRCode) => QRCode.toDataURL(enrolment.otpauthUri, { margin: 2, width: 200, errorCorrectionLevel: 'M' }))
      .then((url) => live && setImage(url));
    return () => {
      live = false;
    };
  }, [enrolment.otpauthUri]);
  return (
    <div className="portal-two-factor-setup" data-testid="two-factor-setup">
      <p>
        <FormattedMessage id="twoFactor.scan" />
      </p>
      <div className="portal-two-factor-qr">
        {image && <img src={image} width={200} height={200} alt={intl.formatMessage({ id: 'twoFactor.qrAlt' })} data-testid="two-factor-qr" />}
      </div>
      <p className="portal-two-factor-key">
        <FormattedMessage id="twoFactor.secret" />{' '}
        <code dir="ltr" data-testid="two-factor-secret" data-secret={enrolment.secret}>
          {enrolment.secret.match(/.{1,4}/g)?.join(' ')}
        </code>
      </p>
    </div>
  );
}

interface CodeFieldProps {
  id: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  autoFocus?: boolean;
}

/** The six digits an authenticator app shows; anything but digits is dropped as it is typed. */
export function CodeField({ id, value, onChange, error, autoFocus }: CodeFieldProps) {
  const intl = useIntl();
  return (
    <LabelledInput
      id={id}
      label={intl.formatMessage({ id: 'twoFactor.code' })}
      error={error}
      errorRole="alert"
      name="code"
      dir="ltr"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      autoFocus={autoFocus}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
      data-testid="two-factor-code"
    />
  );
}

export const isCode = (value: string) => /^\d{6}$/.test(value);

/** What a refused two-factor call means to the user, in their language. */
export function twoFactorErrorText(intl: IntlShape, error: QueryError): string {
  const apiError = apiErrorOf(error);
  const id =
    httpStatus(error) === 429
      ? 'error.rateLimited'
      : apiError?.code === 'TWO_FACTOR_REQUIRED'
        ? 'twoFactor.requiredByReseller'
        : apiError?.code === 'TWO_FACTOR_INVALID' || apiError?.fields?.some((f) => f.field === 'code')
          ? 'twoFactor.codeInvalid'
          : 'app.error.generic';
  return intl.formatMessage({ id });
}
