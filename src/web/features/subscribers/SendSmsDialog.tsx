/**
 * Sends one SMS to the subscriber's SIM. The count under the text says how the network will carry it (GSM-7 or
 * UCS-2), how many characters of the one message it uses, and how many messages it would take; the server sends
 * one message only. Like the other network operations, the outcome shows under the page's header once the
 * network has answered, and the delivery appears in the network events panel.
 * Loaded when first opened: the character count needs a Unicode grapheme table the page does not.
 */
import { Classes, FormGroup, Intent, TextArea } from '@blueprintjs/core';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { SMS_LIMITS, smsLength, smsTextProblem } from '@shared/sms';
import { errorText, useOperations } from './operations';
import { fieldMessage, FormDialog } from './dialogs';
import { usePostSubscriberInfoByIdSmsMutation } from './subscriberApi';

export default function SendSmsDialog({ subscriberId, onClose }: { subscriberId: number; onClose: () => void }) {
  const intl = useIntl();
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const [send, state] = usePostSubscriberInfoByIdSmsMutation();
  const { follow } = useOperations();
  const length = smsLength(text);
  const problem = smsTextProblem(text);
  const submit = async () => {
    setTouched(true);
    if (problem) return;
    const result = await send({ id: subscriberId, body: { text } });
    if (!result.error) {
      follow('send-sms', result);
      onClose();
    }
  };
  const shown = touched && problem ? intl.formatMessage({ id: problem }) : fieldMessage(intl, state.error, 'text');
  return (
    <FormDialog
      title={intl.formatMessage({ id: 'subscriber.sms.title' })}
      testId="sms-dialog"
      onClose={onClose}
      onSubmit={submit}
      busy={state.isLoading}
      submitLabel={intl.formatMessage({ id: 'subscriber.sms.send' })}
      error={state.error && !shown ? errorText(intl, state.error) : undefined}
    >
      <FormGroup
        label={intl.formatMessage({ id: 'subscriber.sms.text' })}
        labelFor="sms-text"
        labelInfo={intl.formatMessage({ id: 'form.required' })}
        helperText={shown ?? intl.formatMessage({ id: 'subscriber.sms.hint' })}
        intent={shown ? Intent.DANGER : Intent.NONE}
      >
        {/* Room to see a text is too long, but not for a pasted book: measuring costs more than the text's length. */}
        <TextArea
          id="sms-text"
          fill
          autoResize
          rows={4}
          value={text}
          maxLength={2 * SMS_LIMITS['GSM-7']}
          intent={shown ? Intent.DANGER : Intent.NONE}
          data-testid="sms-text"
          aria-describedby="sms-count"
          onChange={(e) => {
            setText(e.target.value);
            if (e.target.value.trim()) setTouched(true);
          }}
        />
      </FormGroup>
      <p id="sms-count" className={Classes.TEXT_MUTED} data-testid="sms-count">
        {intl.formatMessage(
          { id: 'subscriber.sms.count' },
          { characters: length.characters, limit: length.limit, encoding: length.encoding, segments: length.segments },
        )}
      </p>
    </FormDialog>
  );
}
