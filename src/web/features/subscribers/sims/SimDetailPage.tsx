/**
 * The SIM card screen (`/sim/{iccid}`): everything the provider keeps about one card, the subscriber it is in
 * service with, an eSIM's activation QR code with mailing, and the SIM cards the user may see, searchable by ICCID.
 * The route's id is the ICCID: the natural key of `GET /portal/sim-cards/{iccid}` and the number printed on the card.
 */
import { Button, Callout, H2, Intent, NonIdealState } from '@blueprintjs/core';
import { ArrowLeftIcon, ErrorIcon, SearchIcon } from '@blueprintjs/icons';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { isValidIccid } from '@shared/iccid';
import { Loading } from '@web/ui/Loading';
import { httpStatus } from '@web/core/apiErrors';
import { formatCell } from '@web/engine/columns';
import { usePageTitle } from '@web/engine/pageTitle';
import { Facts } from '../dialogs';
import { Panel } from '../panels/Panel';
import '../subscribers.css';
import { EsimActivation } from './EsimActivation';
import { SimFinder } from './SimFinder';
import { SimStatusTag, simTypeText } from './SimStatusTag';
import { useGetSimCardsByIccidQuery, type SimCard } from './simApi';
import './sims.css';

function SimView({ card }: { card: SimCard }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const field = (name: string) => t(`subscriber.sim.${name}`);
  const esim = card.simType === 'esim';
  return (
    <div className="portal-panels" data-testid="sim-panels">
      <Panel id="sim-card" title={t('sim.section.card')}>
        <Facts
          testId="sim-facts"
          items={[
            [field('iccid'), <span className="portal-mono">{card.iccid}</span>],
            [field('simType'), simTypeText(intl, card.simType)],
            [field('status'), <SimStatusTag status={card.status} />],
            [field('statusDate'), card.statusDate ? formatCell(intl, 'datetime', card.statusDate) : null],
            [field('profileType'), card.profileType],
            [field('batch'), card.batch],
            [field('cost'), card.cost === null ? null : formatCell(intl, 'money', card.cost)],
            [field('serviceProviderName'), card.serviceProviderName],
            [t('entity.subscriber.field.resellerName'), card.resellerName],
          ]}
        />
      </Panel>
      <Panel id="sim-subscriber" title={t('sim.section.subscriber')}>
        {card.subscriberId === null ? (
          <p className="portal-empty">{t('sim.subscriber.none')}</p>
        ) : (
          <Facts
            items={[
              [t('entity.subscriber.field.subscriberId'), card.subscriberId],
              [
                t('entity.subscriber.field.name'),
                <Link to={`/subscriber/${card.subscriberId}`} data-testid="sim-subscriber-link">
                  {card.subscriberName || String(card.subscriberId)}
                </Link>,
              ],
            ]}
          />
        )}
      </Panel>
      {esim && (
        <Panel id="sim-esim" title={t('sim.section.esim')}>
          {card.activationCode ? (
            <EsimActivation iccid={card.iccid} code={card.activationCode} size={200} />
          ) : (
            <Callout intent={Intent.WARNING}>{t('validation.simCard.notEsim')}</Callout>
          )}
        </Panel>
      )}
    </div>
  );
}

export default function SimDetailPage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const valid = isValidIccid(id);
  // currentData: while another card loads, the previous one is not shown under the new ICCID.
  const { currentData: card, error, isError } = useGetSimCardsByIccidQuery(id, { skip: !valid });
  const status = httpStatus(error);
  const back = card?.subscriberId ? `/subscriber/${card.subscriberId}` : '/subscribers';
  // A card is named by its ICCID, which is also its address.
  usePageTitle(intl.formatMessage({ id: 'form.edit.title' }, { entity: intl.formatMessage({ id: 'sim.title' }), id }));
  return (
    <div className="portal-page portal-subscriber portal-sim" data-testid="sim-detail">
      {/* The subscriber screen's header (back arrow, title, ICCID, status tag), as the card belongs to that screen, not the entity pages' title bar. */}
      <header className="portal-subscriber-header">
        <div className="portal-subscriber-title">
          <Button
            variant="minimal"
            icon={<ArrowLeftIcon className="portal-mirror-rtl" />}
            onClick={() => navigate(back)}
            aria-label={intl.formatMessage({ id: 'sim.back' })}
          />
          <H2>{intl.formatMessage({ id: 'sim.title' })}</H2>
          <span className="portal-mono portal-sim-iccid" data-testid="sim-iccid">
            {id}
          </span>
          {card && <SimStatusTag status={card.status} large />}
        </div>
      </header>
      {!valid ? (
        <Callout intent={Intent.WARNING} data-testid="sim-invalid">
          {intl.formatMessage({ id: 'validation.iccid.invalid' })}
        </Callout>
      ) : status !== undefined && [400, 403, 404].includes(status) ? (
        <div data-testid="detail-not-found">
          <NonIdealState icon={<SearchIcon size={48} />} description={<FormattedMessage id="error.simCard.notFound" />} />
        </div>
      ) : isError ? (
        <NonIdealState icon={<ErrorIcon size={48} />} description={<FormattedMessage id="app.error.generic" />} />
      ) : !card ? (
        <Loading />
      ) : (
        <SimView key={card.iccid} card={card} />
      )}
      <SimFinder current={id} />
    </div>
  );
}
