/** The quick shortcuts, with an editor to add, remove and reorder them, and the support request form they can open. */
import { Button, Checkbox, Classes, Dialog, DialogBody, DialogFooter, H3 } from '@blueprintjs/core';
import { ChevronDownIcon, ChevronUpIcon, EditIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { SHORTCUTS, useShortcuts, type Shortcut } from './shortcuts';
import { TicketDialog } from './TicketDialog';

function ShortcutButton({ shortcut, enabled, onAction }: { shortcut: Shortcut; enabled: boolean; onAction: () => void }) {
  const text = <FormattedMessage id={shortcut.messageId} />;
  const testId = `shortcut-${shortcut.id}`;
  if (!shortcut.path) return <Button icon={<shortcut.icon />} text={text} onClick={onAction} data-testid={testId} />;
  if (enabled) {
    // A link styled as a button: it navigates, so it must be an anchor, not a button inside one.
    return (
      <Link to={shortcut.path} className={Classes.BUTTON} data-testid={testId}>
        <shortcut.icon />
        <span className={Classes.BUTTON_TEXT}>{text}</span>
      </Link>
    );
  }
  return <Button icon={<shortcut.icon />} text={text} disabled data-testid={testId} />;
}

function ShortcutEditor({ chosen, onSave, onClose }: { chosen: string[]; onSave: (ids: string[]) => void; onClose: () => void }) {
  const intl = useIntl();
  const [ids, setIds] = useState(chosen);
  const toggle = (id: string) => setIds((all) => (all.includes(id) ? all.filter((x) => x !== id) : [...all, id]));
  const move = (index: number, by: number) =>
    setIds((all) => {
      const next = [...all];
      [next[index], next[index + by]] = [next[index + by], next[index]];
      return next;
    });
  const unused = SHORTCUTS.filter((s) => !ids.includes(s.id));
  const shortcut = (id: string) => SHORTCUTS.find((s) => s.id === id)!;
  return (
    <Dialog isOpen onClose={onClose} title={intl.formatMessage({ id: 'dashboard.shortcuts.edit' })}>
      <DialogBody data-testid="shortcut-editor">
        <ol className="portal-shortcut-editor">
          {ids.map((id, i) => (
            <li key={id}>
              <Checkbox checked onChange={() => toggle(id)} label={intl.formatMessage({ id: shortcut(id).messageId })} data-testid={`shortcut-choose-${id}`} />
              <Button
                variant="minimal"
                icon={<ChevronUpIcon />}
                disabled={i === 0}
                onClick={() => move(i, -1)}
                aria-label={intl.formatMessage({ id: 'dashboard.shortcuts.up' }, { name: intl.formatMessage({ id: shortcut(id).messageId }) })}
                data-testid={`shortcut-up-${id}`}
              />
              <Button
                variant="minimal"
                icon={<ChevronDownIcon />}
                disabled={i === ids.length - 1}
                onClick={() => move(i, 1)}
                aria-label={intl.formatMessage({ id: 'dashboard.shortcuts.down' }, { name: intl.formatMessage({ id: shortcut(id).messageId }) })}
                data-testid={`shortcut-down-${id}`}
              />
            </li>
          ))}
        </ol>
        {unused.length > 0 && (
          <ul className="portal-shortcut-editor">
            {unused.map((s) => (
              <li key={s.id}>
                <Checkbox
                  checked={false}
                  onChange={() => toggle(s.id)}
                  label={intl.formatMessage({ id: s.messageId })}
                  data-testid={`shortcut-choose-${s.id}`}
                />
              </li>
            ))}
          </ul>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose} text={<FormattedMessage id="form.cancel" />} />
            <Button
              intent="primary"
              onClick={() => {
                onSave(ids);
                onClose();
              }}
              text={<FormattedMessage id="form.save" />}
              data-testid="shortcut-editor-save"
            />
          </>
        }
      />
    </Dialog>
  );
}

/** `allowed` says whether a shortcut's screen may open for this user (its route exists and its privilege is granted). */
export function Shortcuts({ allowed }: { allowed: (shortcut: Shortcut) => boolean }) {
  const intl = useIntl();
  const [chosen, choose] = useShortcuts();
  const [editing, setEditing] = useState(false);
  const [ticket, setTicket] = useState(false);
  return (
    <section className="portal-shortcuts" aria-labelledby="dashboard-shortcuts">
      <div className="portal-shortcuts-head">
        <H3 id="dashboard-shortcuts">
          <FormattedMessage id="dashboard.shortcuts" />
        </H3>
        <Button
          variant="minimal"
          size="small"
          icon={<EditIcon />}
          onClick={() => setEditing(true)}
          aria-label={intl.formatMessage({ id: 'dashboard.shortcuts.edit' })}
          title={intl.formatMessage({ id: 'dashboard.shortcuts.edit' })}
          data-testid="shortcuts-edit"
        />
      </div>
      <div className="portal-shortcut-list">
        {chosen.map((s) => (
          <ShortcutButton key={s.id} shortcut={s} enabled={allowed(s)} onAction={() => setTicket(true)} />
        ))}
      </div>
      {editing && <ShortcutEditor chosen={chosen.map((s) => s.id)} onSave={choose} onClose={() => setEditing(false)} />}
      {ticket && <TicketDialog onClose={() => setTicket(false)} />}
    </section>
  );
}
