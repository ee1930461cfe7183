/**
 * The SIM cards the user may see (`GET /portal/sim-cards`, paged on the server, in ICCID order), narrowed by part
 * of the ICCID, the SIM type and the status; each opens its own SIM card screen.
 */
import { Button, FormGroup, HTMLSelect, HTMLTable, InputGroup, Intent } from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { Loading } from '@web/ui/Loading';
import { Pager } from '@web/ui/Pager';
import { errorText } from '../operations';
import { Panel } from '../panels/Panel';
import { SimStatusTag, simTypeText } from './SimStatusTag';
import { SIM_STATUSES, SIM_TYPES, useGetSimCardsQuery, type SimStatus, type SimType } from './simApi';

const PAGE_SIZE = 10;
const ICCID_PART = /^\d{1,22}$/;

export function SimFinder({ current }: { current: string }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [text, setText] = useState('');
  const [searchKey, setSearchKey] = useState('');
  const [simType, setSimType] = useState<SimType | ''>('');
  const [status, setStatus] = useState<SimStatus | ''>('');
  const [page, setPage] = useState(1);
  const { data, error, isFetching } = useGetSimCardsQuery({
    page: page - 1,
    size: PAGE_SIZE,
    searchKey: searchKey || undefined,
    simType: simType || undefined,
    status: status || undefined,
  });

  const problem = text.trim() && !ICCID_PART.test(text.trim()) ? t('sim.find.digits') : undefined;
  const search = (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    setSearchKey(text.trim());
    setPage(1);
  };

  return (
    <Panel id="sim-finder" title={t('sim.section.find')} wide>
      <form className="portal-sim-filters" onSubmit={search} noValidate role="search">
        <FormGroup helperText={problem} intent={problem ? Intent.DANGER : Intent.NONE}>
          <InputGroup
            aria-label={t('sim.find.iccid')}
            placeholder={t('sim.find.placeholder')}
            inputMode="numeric"
            value={text}
            intent={problem ? Intent.DANGER : Intent.NONE}
            onValueChange={(v) => {
              setText(v);
              if (!v.trim()) {
                setSearchKey('');
                setPage(1);
              }
            }}
            data-testid="sim-find-text"
            rightElement={
              <Button
                type="submit"
                variant="minimal"
                icon={<SearchIcon />}
                aria-label={t('sim.find.search')}
                loading={isFetching}
                data-testid="sim-find-submit"
              />
            }
          />
        </FormGroup>
        <HTMLSelect
          aria-label={t('subscriber.sim.simType')}
          value={simType}
          onChange={(e) => {
            setSimType(e.currentTarget.value as SimType | '');
            setPage(1);
          }}
          data-testid="sim-find-type"
        >
          <option value="">{t('sim.find.allTypes')}</option>
          {SIM_TYPES.map((type) => (
            <option key={type} value={type}>
              {simTypeText(intl, type)}
            </option>
          ))}
        </HTMLSelect>
        <HTMLSelect
          aria-label={t('subscriber.sim.status')}
          value={status}
          onChange={(e) => {
            setStatus(e.currentTarget.value as SimStatus | '');
            setPage(1);
          }}
          data-testid="sim-find-status"
        >
          <option value="">{t('sim.find.allStatuses')}</option>
          {SIM_STATUSES.map((s) => (
            <option key={s} value={s}>
              {intl.formatMessage({ id: `subscriber.simStatus.${s}` })}
            </option>
          ))}
        </HTMLSelect>
      </form>
      {error ? (
        <p className="portal-text-danger" role="alert">
          {errorText(intl, error)}
        </p>
      ) : !data ? (
        <Loading />
      ) : data.items.length === 0 ? (
        <p className="portal-empty">{t('list.empty')}</p>
      ) : (
        <>
          <div className="portal-table-scroll">
            {/* A finder below one SIM card's screen that marks the card shown, paged on the server with its own filters: the grid's list page is a whole page, not a panel. */}
            <HTMLTable compact striped className="portal-panel-table" data-testid="sim-find-table">
              <thead>
                <tr>
                  <th>{t('subscriber.sim.iccid')}</th>
                  <th>{t('subscriber.sim.simType')}</th>
                  <th>{t('subscriber.sim.status')}</th>
                  <th>{t('sim.field.subscriber')}</th>
                  <th>{t('entity.subscriber.field.resellerName')}</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((c) => (
                  <tr key={c.iccid}>
                    <td className="portal-mono">
                      {c.iccid === current ? (
                        <span className="portal-sim-current" aria-current="page">
                          {c.iccid}
                        </span>
                      ) : (
                        <Link to={`/sim/${c.iccid}`}>{c.iccid}</Link>
                      )}
                    </td>
                    <td>{simTypeText(intl, c.simType)}</td>
                    <td>
                      <SimStatusTag status={c.status} />
                    </td>
                    <td>
                      {c.subscriberId === null ? (
                        t('format.none')
                      ) : (
                        <Link to={`/subscriber/${c.subscriberId}`}>{c.subscriberName || String(c.subscriberId)}</Link>
                      )}
                    </td>
                    <td>{c.resellerName}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
          <Pager page={page} pages={data.totalPageCount} total={data.totalItemsCount} onPage={setPage} />
        </>
      )}
    </Panel>
  );
}
