/**
 * `/roaming-profile/{id}`: the engine's form, then the review state (with Approve for the administrator), the
 * downloads (price table; whole profile in the import format) and the price table per country.
 */
import { DownloadIcon, ErrorIcon, TickIcon } from '@blueprintjs/icons';
import { Button, Intent, Tag } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { useParams } from 'react-router-dom';
import EntityDetailPage from '@web/engine/EntityDetailPage';
import { entityEndpoints } from '@web/core/endpoints';
import { findSchema, NEW_ID } from '@web/core/schemas';
import { showToast } from '@web/ui/toaster';
import type { EntityRow } from '@web/core/types';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { useMayWriteRows } from '@web/core/useCaller';
import { useImpactCheck } from './ImpactDialog';
import { PriceTable } from './PriceTable';
import {
  usePostAdminRoamingProfilesByIdApproveMutation,
  useDownloadPriceTableMutation,
  useDownloadWholeProfileMutation,
  usePostRoamingProfilesByIdImpactMutation,
  IMPACT_PAGE,
} from './profilesApi';
import type { Rate } from './rates';
import './profiles.css';

const schema = findSchema('roamingProfile')!;

function ProfileExtras({ id }: { id: number }) {
  const intl = useIntl();
  const isAdmin = useIsAdmin();
  const endpoints = entityEndpoints(schema);
  // The same cache entries as the form's, so a save or an approval shows in both.
  const { data: row } = endpoints.get!.useQuery(String(id));
  const [update, updating] = endpoints.update!.useMutation();
  const [approve, approving] = usePostAdminRoamingProfilesByIdApproveMutation();
  const [downloadRates, downloadingRates] = useDownloadPriceTableMutation();
  const [downloadProfile, downloadingProfile] = useDownloadWholeProfileMutation();
  const [previewImpact] = usePostRoamingProfilesByIdImpactMutation();
  const impact = useImpactCheck();
  const readOnly = !useMayWriteRows(schema);
  if (!row) return null;

  const failed = (messageId: string) => showToast({ intent: Intent.DANGER, icon: <ErrorIcon />, message: intl.formatMessage({ id: messageId }) });
  const state = String(row.reviewState ?? 'pending');
  const onApprove = async () => {
    const result = await approve(id);
    if (result.error) return failed('roamingProfile.approve.error');
    showToast({ intent: Intent.SUCCESS, icon: <TickIcon />, message: intl.formatMessage({ id: 'roamingProfile.approve.done' }) });
  };
  const onSave = async (rates: Rate[]) => {
    // Countries leaving the table leave the profile: its subscribers seen there lately are shown first.
    const kept = new Set(rates.map((r) => r.country));
    const dropped = ((row.rates as Rate[] | undefined) ?? []).map((r) => r.country).filter((c) => !kept.has(c));
    if (
      dropped.length &&
      !(await impact.check(previewImpact({ id, body: { countries: dropped, page: IMPACT_PAGE } }), 'impact.intro.countries', 'impact.confirm.save'))
    )
      return false;
    return !(await update({ ...row, rates })).error;
  };

  return (
    <>
      <div className="portal-page portal-profile-review" data-testid="profile-review">
        <FormattedMessage id="entity.roamingProfile.field.reviewState" />
        <Tag large minimal intent={state === 'approved' ? Intent.SUCCESS : Intent.WARNING} data-testid="profile-review-state" data-state={state}>
          <FormattedMessage id={`entity.roamingProfile.reviewState.${state}`} />
        </Tag>
        {isAdmin && state !== 'approved' && (
          <Button intent={Intent.SUCCESS} icon={<TickIcon />} loading={approving.isLoading} onClick={onApprove} data-testid="profile-approve">
            <FormattedMessage id="roamingProfile.approve" />
          </Button>
        )}
        <Button
          icon={<DownloadIcon />}
          loading={downloadingRates.isLoading}
          onClick={async () => (await downloadRates(id)).error && failed('list.downloadError')}
          data-testid="profile-download-rates"
        >
          <FormattedMessage id="roamingProfile.download.rates" />
        </Button>
        <Button
          icon={<DownloadIcon />}
          loading={downloadingProfile.isLoading}
          onClick={async () => (await downloadProfile(id)).error && failed('list.downloadError')}
          data-testid="profile-download-profile"
        >
          <FormattedMessage id="roamingProfile.download.profile" />
        </Button>
      </div>
      <PriceTable rates={(row.rates as Rate[] | undefined) ?? []} onSave={onSave} saving={updating.isLoading} readOnly={readOnly} />
      {impact.dialog}
    </>
  );
}

export default function RoamingProfilePage() {
  const { id = NEW_ID } = useParams();
  const [previewImpact] = usePostRoamingProfilesByIdImpactMutation();
  const impact = useImpactCheck();
  // Allowed lists leaving the profile take their networks with them: its subscribers seen on those lately are shown first.
  const beforeUpdate = async (next: EntityRow, current: EntityRow) => {
    const kept = new Set((next.allowedListIds as number[] | undefined) ?? []);
    const dropped = ((current.allowedListIds as number[] | undefined) ?? []).filter((list) => !kept.has(list));
    return (
      !dropped.length ||
      impact.check(previewImpact({ id: Number(id), body: { allowedListIds: dropped, page: IMPACT_PAGE } }), 'impact.intro.allowedLists', 'impact.confirm.save')
    );
  };
  return (
    <>
      <EntityDetailPage schema={schema} listAddress="/profiles?tab=1" beforeUpdate={beforeUpdate} />
      {impact.dialog}
      {/^\d{1,10}$/.test(id) && <ProfileExtras id={Number(id)} />}
    </>
  );
}
