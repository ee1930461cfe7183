/**
 * A reseller's webhooks below its standing: a URL per event type (saved, removed, sent a test event), the signing
 * secret (rotated and shown once), and the delivery log with each delivery's attempts and a way to queue it again.
 * The log refreshes itself while a delivery is pending.
 */
import { Alert, Button, ButtonGroup, Callout, Classes, Code, ControlGroup, H3, H4, HTMLTable, InputGroup, Intent, Tag } from '@blueprintjs/core';
import { KeyIcon, RefreshIcon, SendMessageIcon, TrashIcon } from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { apiErrorOf, type QueryError } from '@web/core/apiErrors';
import { Loading } from '@web/ui/Loading';
import { showToast } from '@web/ui/toaster';
import {
  useDeleteResellerInfoWebhookUrlsMutation,
  useGetResellerInfoWebhookDeliveriesQuery,
  useGetResellerInfoWebhookUrlsQuery,
  usePostResellerInfoWebhookDeliveriesByIdRedeliverMutation,
  usePostResellerInfoWebhookSecretMutation,
  usePostResellerInfoWebhookUrlsMutation,
  usePostResellerInfoWebhookUrlsTestMutation,
  type WebhookDelivery,
  type WebhookUrls,
} from './webhooksApi';

type EventType = WebhookUrls['items'][number]['eventType'];

const PAGE_SIZE = 20;
const STATUS_INTENT = { pending: Intent.WARNING, delivered: Intent.SUCCESS, failed: Intent.DANGER } as const;

function useFailureToast() {
  const intl = useIntl();
  return (error: QueryError) => {
    const messageId = apiErrorOf(error)?.fields?.[0]?.messageId ?? 'app.error.generic';
    showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: messageId }) });
  };
}

function UrlRow({ resellerId, eventType, url }: { resellerId: number; eventType: EventType; url: string | null }) {
  const intl = useIntl();
  const failed = useFailureToast();
  const [text, setText] = useState(url ?? '');
  const [error, setError] = useState<string>();
  const [save, saving] = usePostResellerInfoWebhookUrlsMutation();
  const [remove, removing] = useDeleteResellerInfoWebhookUrlsMutation();
  const [sendTest, testing] = usePostResellerInfoWebhookUrlsTestMutation();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await save({ resellerId, eventType, url: text.trim() });
    const messageId = result.error ? (apiErrorOf(result.error)?.fields?.[0]?.messageId ?? 'app.error.generic') : undefined;
    setError(messageId && intl.formatMessage({ id: messageId }));
    if (!result.error) showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'form.saved' }) });
  };
  return (
    <tr data-testid={`webhook-row-${eventType}`}>
      <th scope="row">
        <FormattedMessage id={`webhooks.eventType.${eventType}`} />
      </th>
      <td>
        <form onSubmit={submit}>
          <ControlGroup fill>
            <InputGroup
              dir="ltr"
              fill
              type="url"
              value={text}
              placeholder="https://"
              aria-label={intl.formatMessage({ id: 'webhooks.column.url' })}
              intent={error ? Intent.DANGER : Intent.NONE}
              onValueChange={setText}
              data-testid={`webhook-url-${eventType}`}
            />
            <Button type="submit" loading={saving.isLoading} disabled={!text.trim() || text.trim() === url} data-testid={`webhook-save-${eventType}`}>
              <FormattedMessage id="form.save" />
            </Button>
          </ControlGroup>
          {error && (
            <div className={`${Classes.FORM_HELPER_TEXT} ${Classes.INTENT_DANGER}`} data-testid={`webhook-error-${eventType}`}>
              {error}
            </div>
          )}
        </form>
      </td>
      <td>
        <ButtonGroup>
          <Button
            icon={<SendMessageIcon />}
            disabled={!url}
            loading={testing.isLoading}
            data-testid={`webhook-test-${eventType}`}
            onClick={async () => {
              const result = await sendTest({ resellerId, eventType });
              if (result.error) failed(result.error);
              else showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'webhooks.testQueued' }) });
            }}
          >
            <FormattedMessage id="webhooks.sendTest" />
          </Button>
          <Button
            icon={<TrashIcon />}
            intent={Intent.DANGER}
            variant="minimal"
            disabled={!url}
            loading={removing.isLoading}
            aria-label={intl.formatMessage({ id: 'webhooks.delete' })}
            title={intl.formatMessage({ id: 'webhooks.delete' })}
            data-testid={`webhook-delete-${eventType}`}
            onClick={async () => {
              const result = await remove({ resellerId, eventType });
              if (result.error) return failed(result.error);
              setText('');
              setError(undefined);
              showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'webhooks.deleted' }) });
            }}
          />
        </ButtonGroup>
      </td>
    </tr>
  );
}

function Secret({ resellerId, hasSecret }: { resellerId: number; hasSecret: boolean }) {
  const intl = useIntl();
  const failed = useFailureToast();
  const [rotate, rotating] = usePostResellerInfoWebhookSecretMutation();
  const [confirm, setConfirm] = useState(false);
  const [shown, setShown] = useState<string>();
  return (
    <div className="portal-webhook-secret" data-testid="webhook-secret">
      <H4>
        <FormattedMessage id="webhooks.secret.title" />
      </H4>
      <p>
        <FormattedMessage id={hasSecret ? 'webhooks.secret.set' : 'webhooks.secret.none'} />
      </p>
      {shown && (
        <Callout intent={Intent.WARNING} icon={<KeyIcon />} data-testid="webhook-secret-shown">
          <FormattedMessage id="webhooks.secret.shown" />{' '}
          <Code dir="ltr" className="portal-webhook-secret-value">
            {shown}
          </Code>
        </Callout>
      )}
      <Button icon={<KeyIcon />} loading={rotating.isLoading} onClick={() => setConfirm(true)} data-testid="webhook-secret-rotate">
        <FormattedMessage id="webhooks.secret.rotate" />
      </Button>
      <Alert
        isOpen={confirm}
        intent={Intent.WARNING}
        icon={<KeyIcon />}
        confirmButtonText={intl.formatMessage({ id: 'webhooks.secret.rotate' })}
        cancelButtonText={intl.formatMessage({ id: 'form.cancel' })}
        onCancel={() => setConfirm(false)}
        onConfirm={async () => {
          setConfirm(false);
          const result = await rotate(resellerId);
          if (result.error) failed(result.error);
          else setShown(result.data.secret);
        }}
      >
        <FormattedMessage id="webhooks.secret.confirm" />
      </Alert>
    </div>
  );
}

function DeliveryRow({ delivery }: { delivery: WebhookDelivery }) {
  const intl = useIntl();
  const failed = useFailureToast();
  const [redeliver, redelivering] = usePostResellerInfoWebhookDeliveriesByIdRedeliverMutation();
  const last = delivery.attemptLog?.at(-1);
  return (
    <tr data-testid={`webhook-delivery-${delivery.id}`}>
      <td>
        <FormattedMessage id={`webhooks.eventType.${delivery.eventType}`} />
      </td>
      <td dir="ltr" className="portal-webhook-log-url">
        {delivery.url}
      </td>
      <td>
        <Tag minimal intent={STATUS_INTENT[delivery.status]} data-testid="webhook-delivery-status">
          <FormattedMessage id={`webhooks.status.${delivery.status}`} />
        </Tag>
      </td>
      <td className="portal-webhook-number">{intl.formatNumber(delivery.attempts)}</td>
      <td className="portal-webhook-number" title={delivery.lastError ?? undefined}>
        {delivery.lastStatusCode ?? (delivery.lastError ? '—' : '')}
      </td>
      <td className="portal-webhook-number">
        {delivery.lastLatencyMs != null && <FormattedMessage id="webhooks.latencyMs" values={{ ms: intl.formatNumber(delivery.lastLatencyMs) }} />}
      </td>
      <td>{intl.formatDate(last?.attemptedAt ?? delivery.createdAt, { dateStyle: 'short', timeStyle: 'medium' })}</td>
      <td>
        <Button
          size="small"
          icon={<RefreshIcon />}
          disabled={delivery.status === 'pending'}
          loading={redelivering.isLoading}
          data-testid={`webhook-redeliver-${delivery.id}`}
          onClick={async () => {
            const result = await redeliver(delivery.id);
            if (result.error) failed(result.error);
            else showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'webhooks.redelivered' }) });
          }}
        >
          <FormattedMessage id="webhooks.redeliver" />
        </Button>
      </td>
    </tr>
  );
}

function DeliveryLog({ resellerId }: { resellerId: number }) {
  const intl = useIntl();
  const [page, setPage] = useState(0);
  const [polling, setPolling] = useState(false);
  const { data } = useGetResellerInfoWebhookDeliveriesQuery({ resellerId, page, size: PAGE_SIZE }, { pollingInterval: polling ? 3000 : 0 });
  const pending = Boolean(data?.items.some((d) => d.status === 'pending'));
  if (pending !== polling) setPolling(pending);
  const columns = ['eventType', 'url', 'status', 'attempts', 'lastCode', 'latency', 'time'];
  return (
    <div className="portal-webhook-log" data-testid="webhook-log">
      <H4>
        <FormattedMessage id="webhooks.log.title" />
      </H4>
      {!data ? (
        <Loading />
      ) : data.items.length === 0 ? (
        <p className={Classes.TEXT_MUTED} data-testid="webhook-log-empty">
          <FormattedMessage id="webhooks.log.empty" />
        </p>
      ) : (
        <>
          {/* A panel of the reseller's page, paged on the server with a redeliver action per row: the grid and the admin table are whole pages, not panels. */}
          <HTMLTable compact striped className="portal-webhook-table">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c}>
                    <FormattedMessage id={`webhooks.column.${c}`} />
                  </th>
                ))}
                <th aria-label={intl.formatMessage({ id: 'webhooks.redeliver' })} />
              </tr>
            </thead>
            <tbody>
              {data.items.map((d) => (
                <DeliveryRow key={d.id} delivery={d} />
              ))}
            </tbody>
          </HTMLTable>
          {data.total > PAGE_SIZE && (
            <ButtonGroup className="portal-webhook-pager">
              <Button disabled={page === 0} onClick={() => setPage(page - 1)}>
                <FormattedMessage id="list.previous" />
              </Button>
              <Button disabled={(page + 1) * PAGE_SIZE >= data.total} onClick={() => setPage(page + 1)}>
                <FormattedMessage id="list.next" />
              </Button>
            </ButtonGroup>
          )}
        </>
      )}
    </div>
  );
}

export function WebhooksPanel({ id }: { id: number }) {
  const { data, isError } = useGetResellerInfoWebhookUrlsQuery(id);
  if (isError) return null;
  return (
    <section className="portal-page portal-webhooks" data-testid="reseller-webhooks">
      <header className="portal-page-header">
        <H3>
          <FormattedMessage id="webhooks.title" />
        </H3>
      </header>
      {!data ? (
        <Loading />
      ) : (
        <>
          {/* One row per event type, five at most, each with its URL and actions: a fixed form laid out as rows, not a list of records. */}
          <HTMLTable compact className="portal-webhook-table portal-webhook-urls">
            <thead>
              <tr>
                <th>
                  <FormattedMessage id="webhooks.column.eventType" />
                </th>
                <th>
                  <FormattedMessage id="webhooks.column.url" />
                </th>
                <th />
              </tr>
            </thead>
            <tbody>
              {data.items.map((item) => (
                <UrlRow key={`${item.eventType}-${item.url ?? ''}`} resellerId={id} eventType={item.eventType} url={item.url} />
              ))}
            </tbody>
          </HTMLTable>
          <Secret resellerId={id} hasSecret={data.hasSecret} />
          <DeliveryLog resellerId={id} />
        </>
      )}
    </section>
  );
}
