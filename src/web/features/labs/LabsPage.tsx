/**
 * Labs: the switches of features still being tried, for the user's own tenant; the administrator picks the tenant,
 * the provider's switches reaching every tenant. A lab switched off above the tenant shows locked and cannot be
 * switched on here (the server refuses it too).
 */
import { Callout, FormGroup, H2, HTMLSelect, HTMLTable, Intent, Switch, Tag } from '@blueprintjs/core';
import { LockIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { labOf } from '@shared/labs';
import { ADMIN_RESELLER_ID } from '@shared/privileges';
import { apiErrorOf } from '@web/core/apiErrors';
import { useGetResellerInfoListQuery } from '@web/core/authApi';
import { selectIsAdmin } from '@web/core/authSlice';
import { useAppSelector } from '@web/core/hooks';
import { useGetLabsQuery, usePutLabsByLabMutation, type LabRow } from '@web/core/labsApi';
import { usePageTitle } from '@web/engine/pageTitle';
import { Loading } from '@web/ui/Loading';
import { showToast } from '@web/ui/toaster';

/** The administrator's choice of tenant: the provider (every tenant) or one reseller. */
function TenantPicker({ value, onChange }: { value: number; onChange: (id: number) => void }) {
  const intl = useIntl();
  const { data: resellers = [] } = useGetResellerInfoListQuery();
  const options = [
    { value: ADMIN_RESELLER_ID, label: intl.formatMessage({ id: 'labs.provider' }) },
    ...resellers.filter((r) => r.id !== ADMIN_RESELLER_ID).map((r) => ({ value: r.id, label: r.name })),
  ];
  return (
    <FormGroup label={intl.formatMessage({ id: 'labs.tenant' })} labelFor="labs-tenant" inline>
      <HTMLSelect id="labs-tenant" value={value} options={options} onChange={(e) => onChange(Number(e.currentTarget.value))} data-testid="labs-tenant" />
    </FormGroup>
  );
}

function LabState({ row }: { row: LabRow }) {
  const intl = useIntl();
  const state = (on: boolean) => (on ? 'on' : 'off');
  if (row.locked)
    return (
      <Tag icon={<LockIcon />} intent={Intent.WARNING} minimal data-testid={`lab-locked-${row.key}`}>
        <FormattedMessage id="labs.status.locked" />
      </Tag>
    );
  if (row.own !== null)
    return (
      <FormattedMessage
        id="labs.status.set"
        values={{
          state: state(row.own),
          user: row.updatedBy ?? intl.formatMessage({ id: 'labs.someone' }),
          date: row.updatedAt ? intl.formatDate(row.updatedAt, { dateStyle: 'medium', timeStyle: 'short' }) : '',
        }}
      />
    );
  return <FormattedMessage id="labs.status.inherited" values={{ state: state(row.enabled), fallback: state(row.default) }} />;
}

function LabSwitch({ row, resellerId, readOnly }: { row: LabRow; resellerId: number; readOnly: boolean }) {
  const intl = useIntl();
  const [save, { isLoading }] = usePutLabsByLabMutation();
  const name = intl.formatMessage({ id: labOf(row.key).name });
  return (
    <Switch
      checked={row.enabled}
      // Locked off from above: only switching it off (already the case) would be accepted. The provider's switches,
      // which reach every tenant, are the administrator's alone.
      disabled={isLoading || row.locked || readOnly}
      aria-label={intl.formatMessage({ id: 'labs.switch' }, { lab: name })}
      data-testid={`lab-switch-${row.key}`}
      onChange={async (e) => {
        const enabled = e.currentTarget.checked;
        const result = await save({ lab: row.key, body: { enabled, resellerId } });
        if (result.error) {
          const refused = apiErrorOf(result.error)?.fields?.[0]?.messageId;
          showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: refused === 'error.labLocked' ? refused : 'app.error.generic' }) });
        } else showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'labs.saved' }, { lab: name, state: enabled ? 'on' : 'off' }) });
      }}
    />
  );
}

export default function LabsPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'labs.title' }));
  const isAdmin = useAppSelector(selectIsAdmin);
  const [picked, setPicked] = useState(ADMIN_RESELLER_ID);
  // Everyone else manages its own tenant, which the server takes when none is named.
  const resellerId = isAdmin ? picked : undefined;
  // Read afresh on opening: a reseller above may have switched something since. Only the picked tenant's answer is
  // shown (`currentData`): the last tenant's switches, still on screen, would write to that tenant.
  const { currentData: data, isFetching, isError } = useGetLabsQuery(resellerId, { refetchOnMountOrArgChange: true });

  return (
    <div className="portal-page portal-labs-page" data-testid="labs-page">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="labs.title" />
        </H2>
      </header>
      <p className="portal-page-intro">
        <FormattedMessage id="labs.intro" />
      </p>
      {isAdmin && <TenantPicker value={picked} onChange={setPicked} />}
      {isError && (
        <Callout intent={Intent.DANGER}>
          <FormattedMessage id="list.loadError" />
        </Callout>
      )}
      {!data && isFetching && <Loading />}
      {data && (
        // The few switches the portal defines, each with its own toggle, answered whole by the server: no paging, sorting or search to offer.
        <HTMLTable className="portal-admin-table portal-labs" striped>
          <thead>
            <tr>
              <th scope="col">
                <FormattedMessage id="labs.column.lab" />
              </th>
              <th scope="col">
                <FormattedMessage id="labs.column.enabled" />
              </th>
              <th scope="col">
                <FormattedMessage id="labs.column.status" />
              </th>
            </tr>
          </thead>
          <tbody>
            {data.labs.map((row) => (
              <tr key={row.key} data-testid={`lab-${row.key}`}>
                <td>
                  <strong>
                    <FormattedMessage id={labOf(row.key).name} />
                  </strong>
                  <div className="portal-labs-description">
                    <FormattedMessage id={labOf(row.key).description} />
                  </div>
                </td>
                <td>
                  <LabSwitch row={row} resellerId={data.resellerId} readOnly={!isAdmin && data.resellerId === ADMIN_RESELLER_ID} />
                </td>
                <td>
                  <LabState row={row} />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </div>
  );
}
