/**
 * The impact of a change that blocks or drops networks, asked before the change is saved: how many subscribers
 * seen on those networks in the last 30 days it would cut off, per country, and the first of them with links to
 * their pages. The user goes on or cancels. A change that cuts nobody off goes ahead without asking.
 */
import { ErrorIcon, WarningSignIcon } from '@blueprintjs/icons';
import { Button, Callout, Dialog, DialogBody, DialogFooter, H5, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { countryNames } from '@shared/countries';
import { apiErrorOf, type QueryError } from '@web/core/apiErrors';
import { formatCell } from '@web/engine/columns';
import type { Impact } from './profilesApi';
import './profiles.css';

/** How far back an attachment counts (the server's IMPACT_DAYS). */
const IMPACT_DAYS = 30;

interface ImpactDialogProps {
  impact?: Impact;
  /** The preview failed: the user may still go on, knowing the impact is unknown. */
  error?: QueryError;
  /** Message id of the sentence saying what the change does. */
  intro: string;
  /** Message id of the button that goes on with the change. */
  confirm: string;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ImpactDialog({ impact, error, intro, confirm, onConfirm, onCancel }: ImpactDialogProps) {
  const intl = useIntl();
  const names = useMemo(() => countryNames(intl.locale), [intl.locale]);
  const nameOf = (code: string | null) => (code ? `${names[code] ?? code} (${code})` : intl.formatMessage({ id: 'format.none' }));
  const shown = impact?.subscribers.items ?? [];
  return (
    <Dialog isOpen onClose={onCancel} title={intl.formatMessage({ id: 'impact.title' })} icon={<WarningSignIcon />} className="portal-impact-dialog">
      <DialogBody>
        <div data-testid="impact-dialog">
          <p>
            <FormattedMessage id={intro} values={{ days: IMPACT_DAYS }} />
          </p>
          {error && (
            <Callout intent={Intent.WARNING} icon={<ErrorIcon />} role="alert" data-testid="impact-error">
              <FormattedMessage id="impact.error" values={{ message: apiErrorOf(error)?.message ?? intl.formatMessage({ id: 'app.error.generic' }) }} />
            </Callout>
          )}
          {impact && (
            <>
              <p className="portal-impact-total" data-testid="impact-total">
                <FormattedMessage id="impact.total" values={{ total: impact.total }} />
              </p>
              <H5>
                <FormattedMessage id="impact.countries" />
              </H5>
              <div className="portal-impact-countries" data-testid="impact-countries">
                {impact.countries.map((c) => (
                  <Tag key={c.country} minimal intent={Intent.WARNING} data-country={c.country}>
                    {nameOf(c.country)}: {c.count}
                  </Tag>
                ))}
              </div>
              <H5>
                <FormattedMessage id="impact.subscribers" />
              </H5>
              <div className="portal-impact-list">
                {/* A preview of the first subscribers a change would cut off, inside the confirm dialog, with a count of the rest: no paging, sorting or search to offer. */}
                <HTMLTable compact striped className="portal-impact-table" data-testid="impact-subscribers">
                  <thead>
                    <tr>
                      <th>
                        <FormattedMessage id="entity.subscriber.field.subscriberId" />
                      </th>
                      <th>
                        <FormattedMessage id="entity.subscriber.field.name" />
                      </th>
                      <th>
                        <FormattedMessage id="entity.subscriber.field.imsi" />
                      </th>
                      <th>
                        <FormattedMessage id="impact.lastSeen" />
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((s) => (
                      <tr key={s.subscriberId} data-testid={`impact-subscriber-${s.subscriberId}`}>
                        <td>
                          <Link to={`/subscriber/${s.subscriberId}`} dir="ltr">
                            {s.subscriberId}
                          </Link>
                        </td>
                        <td>{s.name ?? ''}</td>
                        <td dir="ltr">{s.imsi}</td>
                        <td>{formatCell(intl, 'datetime', s.lastSeenAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </HTMLTable>
              </div>
              {impact.total > shown.length && (
                <p className="portal-muted-note">
                  <FormattedMessage id="impact.more" values={{ shown: shown.length, total: impact.total }} />
                </p>
              )}
            </>
          )}
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onCancel} data-testid="impact-cancel">
              <FormattedMessage id="form.cancel" />
            </Button>
            <Button intent={Intent.DANGER} onClick={onConfirm} data-testid="impact-confirm">
              <FormattedMessage id={confirm} />
            </Button>
          </>
        }
      />
    </Dialog>
  );
}

type Asking = Omit<ImpactDialogProps, 'onConfirm' | 'onCancel'> & { answer: (go: boolean) => void };

/**
 * Asks before a change that cuts networks off: `check(preview, intro, confirm)` answers true to go on (at once
 * when the preview finds nobody affected), false when the user cancels. Render `dialog` on the page.
 */
export function useImpactCheck() {
  const [asking, setAsking] = useState<Asking | null>(null);
  const check = async (preview: Promise<{ data?: Impact; error?: QueryError }>, intro: string, confirm: string): Promise<boolean> => {
    const { data, error } = await preview;
    if (data && data.total === 0) return true;
    return new Promise<boolean>((resolve) => {
      setAsking({
        impact: data,
        error,
        intro,
        confirm,
        answer: (go) => {
          setAsking(null);
          resolve(go);
        },
      });
    });
  };
  const dialog = asking && <ImpactDialog {...asking} onConfirm={() => asking.answer(true)} onCancel={() => asking.answer(false)} />;
  return { check, dialog };
}
