/**
 * Operations on the subscriber shown: network operations answer at once with a pending record, which is polled
 * until the core network has answered; the outcome (done, or the failure and why) stays shown under the header
 * and every panel reads the subscriber again. Only one network operation runs per subscriber at a time.
 */
import { Callout, Intent, Spinner, SpinnerSize } from '@blueprintjs/core';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { apiErrorOf, type QueryError } from '@web/core/apiErrors';
import { useAppDispatch } from '@web/core/hooks';
import { refreshSubscriber, useGetSubscriberInfoByIdOperationsQuery, useGetSubscriberInfoOperationsByIdQuery, type SubscriberOperation } from './subscriberApi';
import { messageOr } from '@web/core/messages';

/** How often a pending operation is asked for its outcome. */
export const POLL_MS = 800;

type Outcome = { kind: 'pending' | 'success' | 'failed'; operation: string; message?: string };

interface Operations {
  /** Hands over the answer of an operation call; a pending operation is followed until it finishes. */
  follow(operation: string, result: { data?: SubscriberOperation; error?: QueryError }): void;
  /** A network operation waits for the network's answer: further ones wait too. */
  busy: boolean;
}

const OperationsContext = createContext<Operations>({ follow: () => undefined, busy: false });

export const useOperations = () => useContext(OperationsContext);

/** The text of an error answer: the first field's message, else the error's own, in the user's language. */
export function errorText(intl: IntlShape, error: QueryError): string {
  const apiError = apiErrorOf(error);
  const field = apiError?.fields?.[0];
  if (field) return messageOr(intl, field.messageId, field.message);
  if (apiError) return messageOr(intl, apiError.message);
  return intl.formatMessage({ id: 'app.error.generic' });
}

function failureText(intl: IntlShape, op: SubscriberOperation): string {
  const id = op.error?.messageId;
  const fallback = op.error?.message ?? intl.formatMessage({ id: 'subscriberOperation.failed.network' });
  return id ? messageOr(intl, id, fallback) : fallback;
}

function Poller({ id, onFinished }: { id: number; onFinished: (op: SubscriberOperation) => void }) {
  const { data } = useGetSubscriberInfoOperationsByIdQuery(id, { pollingInterval: POLL_MS, skipPollingIfUnfocused: false });
  useEffect(() => {
    if (data && data.status !== 'pending') onFinished(data);
  }, [data, onFinished]);
  return null;
}

export function OperationsProvider({ subscriberId, children }: { subscriberId: number; children: ReactNode }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const [pending, setPending] = useState<SubscriberOperation | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const finished = useCallback(
    (op: SubscriberOperation) => {
      setPending(null);
      setOutcome(
        op.status === 'success' ? { kind: 'success', operation: op.operation } : { kind: 'failed', operation: op.operation, message: failureText(intl, op) },
      );
      dispatch(refreshSubscriber(subscriberId));
    },
    [dispatch, intl, subscriberId],
  );

  const follow = useCallback<Operations['follow']>(
    (operation, result) => {
      if (result.error) {
        setOutcome({ kind: 'failed', operation, message: errorText(intl, result.error) });
        return;
      }
      const op = result.data;
      if (!op) return;
      if (op.status === 'pending') {
        setPending(op);
        setOutcome({ kind: 'pending', operation: op.operation });
      } else finished(op);
    },
    [finished, intl],
  );

  // An operation started before the page opened (another tab, a reload) is followed as well.
  const recent = useGetSubscriberInfoByIdOperationsQuery(subscriberId, { refetchOnMountOrArgChange: true });
  const [resumed, setResumed] = useState(false);
  const waiting = recent.data?.find((op) => op.status === 'pending');
  if (!resumed && recent.data) {
    setResumed(true);
    if (waiting && !pending) {
      setPending(waiting);
      setOutcome({ kind: 'pending', operation: waiting.operation });
    }
  }

  const value = useMemo(() => ({ follow, busy: pending !== null }), [follow, pending]);
  return (
    <OperationsContext.Provider value={value}>
      {pending && <Poller key={pending.id} id={pending.id} onFinished={finished} />}
      <OutcomeContext.Provider value={outcome}>{children}</OutcomeContext.Provider>
    </OperationsContext.Provider>
  );
}

const OutcomeContext = createContext<Outcome | null>(null);

/** The latest operation's state: waiting for the network, done, or failed and why. */
export function OperationOutcome() {
  const intl = useIntl();
  const outcome = useContext(OutcomeContext);
  if (!outcome) return null;
  const name = messageOr(intl, `subscriber.operation.${outcome.operation}`, outcome.operation);
  const intent = outcome.kind === 'pending' ? Intent.PRIMARY : outcome.kind === 'success' ? Intent.SUCCESS : Intent.DANGER;
  return (
    <Callout
      className="portal-subscriber-outcome"
      intent={intent}
      icon={outcome.kind === 'pending' ? <Spinner size={SpinnerSize.SMALL} /> : undefined}
      data-testid="operation-outcome"
      data-status={outcome.kind}
      role={outcome.kind === 'failed' ? 'alert' : 'status'}
    >
      {intl.formatMessage({ id: `subscriber.outcome.${outcome.kind}` }, { operation: name, message: outcome.message ?? '' })}
    </Callout>
  );
}
