/**
 * An eSIM's activation code as a QR code to scan with the device, and a form that mails the same code (as a
 * QR image) to an address: the subscriber page's pairing dialog and the SIM card screen both show it.
 */
import { Button, Callout, FormGroup, InputGroup, Intent } from '@blueprintjs/core';
import { EnvelopeIcon } from '@blueprintjs/icons';
import QRCode from 'qrcode';
import { useEffect, useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { apiErrorOf } from '@web/core/apiErrors';
import { errorText } from '../operations';
import { usePostSimCardsByIccidMutation } from './simApi';
import './sims.css';
import { messageOr } from '@web/core/messages';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The QR code of an activation code, drawn in the browser. */
export function useQrImage(code: string | null | undefined, width: number): string | null {
  // The image drawn last, shown only while it is still the one asked for.
  const [drawn, setDrawn] = useState<{ code: string; width: number; url: string } | null>(null);
  useEffect(() => {
    let live = true;
    if (code) void QRCode.toDataURL(code, { margin: 2, width, errorCorrectionLevel: 'M' }).then((url) => live && setDrawn({ code, width, url }));
    return () => {
      live = false;
    };
  }, [code, width]);
  return drawn && drawn.code === code && drawn.width === width ? drawn.url : null;
}

export function EsimActivation({ iccid, code, size = 240 }: { iccid: string; code: string; size?: number }) {
  const intl = useIntl();
  const image = useQrImage(code, size);
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [send, sent] = usePostSimCardsByIccidMutation();

  const problem = !email.trim() ? 'validation.email.required' : !EMAIL.test(email.trim()) ? 'validation.email.invalid' : undefined;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    setSentTo(null);
    if (problem) return;
    const result = await send({ iccid, body: { email: email.trim() } });
    if (!result.error) setSentTo(email.trim());
  };
  const serverField = apiErrorOf(sent.error)?.fields?.find((f) => f.field === 'email');
  const shown =
    touched && problem ? intl.formatMessage({ id: problem }) : serverField ? messageOr(intl, serverField.messageId, serverField.message) : undefined;

  return (
    <>
      <p>{intl.formatMessage({ id: 'subscriber.pair.scan' })}</p>
      <div className="portal-qr">
        {image && <img src={image} width={size} height={size} alt={intl.formatMessage({ id: 'subscriber.pair.qrAlt' })} data-testid="esim-qr" />}
        <code className="portal-mono" data-testid="activation-code">
          {code}
        </code>
      </div>
      <form onSubmit={submit} noValidate className="portal-qr-mail">
        <FormGroup
          label={intl.formatMessage({ id: 'subscriber.pair.email' })}
          labelFor={`qr-email-${iccid}`}
          intent={shown ? Intent.DANGER : Intent.NONE}
          helperText={shown}
        >
          <InputGroup
            id={`qr-email-${iccid}`}
            type="email"
            placeholder="name@example.com"
            value={email}
            intent={shown ? Intent.DANGER : Intent.NONE}
            onValueChange={(v) => {
              setEmail(v);
              setTouched(true);
            }}
            data-testid="qr-email"
          />
        </FormGroup>
        <Button type="submit" intent={Intent.PRIMARY} icon={<EnvelopeIcon />} loading={sent.isLoading} className="portal-qr-send" data-testid="qr-send">
          {intl.formatMessage({ id: 'sim.esim.send' })}
        </Button>
        {sentTo && !sent.isLoading && (
          <Callout intent={Intent.SUCCESS} role="status" data-testid="qr-sent">
            {intl.formatMessage({ id: 'sim.esim.sent' }, { email: sentTo })}
          </Callout>
        )}
        {sent.error && !shown && !sent.isLoading && (
          <Callout intent={Intent.DANGER} role="alert" data-testid="qr-send-error">
            {intl.formatMessage({ id: 'sim.esim.sendError' }, { message: errorText(intl, sent.error) })}
          </Callout>
        )}
      </form>
    </>
  );
}
