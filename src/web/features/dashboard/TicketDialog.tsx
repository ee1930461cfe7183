/** The support request form: a subject, a category and a message, sent to the administrator. */
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Intent, TextArea } from '@blueprintjs/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { apiErrorOf } from '@web/core/apiErrors';
import { fieldErrorsOf } from '@web/core/fieldErrors';
import { showToast } from '@web/ui/toaster';
import { usePostSupportTicketsMutation } from './dashboardApi';

const CATEGORIES = ['technical', 'billing', 'sims', 'orders', 'other'] as const;
const SUBJECT_MAX = 200;
const MESSAGE_MAX = 5000;

/** A labelled field of the form with its error under it. */
function Field({ name, error, children }: { name: string; error: string | undefined; children: ReactNode }) {
  const intl = useIntl();
  return (
    <FormGroup
      label={intl.formatMessage({ id: `support.ticket.${name}` })}
      labelFor={`ticket-${name}`}
      intent={error ? Intent.DANGER : Intent.NONE}
      helperText={error}
    >
      {children}
    </FormGroup>
  );
}

export function TicketDialog({ onClose }: { onClose: () => void }) {
  const intl = useIntl();
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [category, setCategory] = useState<(typeof CATEGORIES)[number]>('technical');
  const [send, { isLoading, error, reset }] = usePostSupportTicketsMutation();
  const [checked, setChecked] = useState<Record<string, string>>({});
  const served = fieldErrorsOf(error);
  const errorOf = (field: string) => checked[field] ?? (served[field] && intl.formatMessage({ id: served[field].messageId }));
  const general =
    error && !Object.keys(served).length
      ? intl.formatMessage({ id: apiErrorOf(error)?.code === 'RATE_LIMITED' ? 'support.ticket.tooMany' : 'app.error.generic' })
      : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    reset();
    const problems: Record<string, string> = {};
    if (!subject.trim()) problems.subject = intl.formatMessage({ id: 'support.subject.required' });
    if (!message.trim()) problems.message = intl.formatMessage({ id: 'support.message.required' });
    setChecked(problems);
    if (Object.keys(problems).length) return;
    const answer = await send({ subject: subject.trim(), message: message.trim(), category });
    if ('data' in answer && answer.data) {
      showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'support.ticket.sent' }, { id: answer.data.id }) });
      onClose();
    }
  };

  return (
    <Dialog isOpen onClose={onClose} title={intl.formatMessage({ id: 'support.ticket.title' })}>
      <form onSubmit={submit} noValidate data-testid="ticket-dialog">
        <DialogBody>
          <Field name="subject" error={errorOf('subject')}>
            <InputGroup
              id="ticket-subject"
              value={subject}
              maxLength={SUBJECT_MAX}
              onValueChange={setSubject}
              intent={errorOf('subject') ? Intent.DANGER : Intent.NONE}
              data-testid="ticket-subject"
              autoFocus
            />
          </Field>
          <Field name="category" error={errorOf('category')}>
            <HTMLSelect
              id="ticket-category"
              value={category}
              onChange={(e) => setCategory(e.currentTarget.value as (typeof CATEGORIES)[number])}
              data-testid="ticket-category"
            >
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {intl.formatMessage({ id: `support.category.${c}` })}
                </option>
              ))}
            </HTMLSelect>
          </Field>
          <Field name="message" error={errorOf('message')}>
            <TextArea
              id="ticket-message"
              value={message}
              maxLength={MESSAGE_MAX}
              rows={6}
              fill
              onChange={(e) => setMessage(e.currentTarget.value)}
              intent={errorOf('message') ? Intent.DANGER : Intent.NONE}
              data-testid="ticket-message"
            />
          </Field>
          {general && (
            <p className="bp6-text-danger" role="alert" data-testid="ticket-error">
              {general}
            </p>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={onClose} text={<FormattedMessage id="form.cancel" />} />
              <Button
                type="submit"
                intent={Intent.PRIMARY}
                loading={isLoading}
                text={<FormattedMessage id="support.ticket.send" />}
                data-testid="ticket-send"
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
