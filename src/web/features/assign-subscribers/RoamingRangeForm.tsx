/**
 * Gives the caller's subscribers of a range an approved roaming profile, all or none: at most 1000 subscribers,
 * and a multi-IMSI subscriber never gets a single-IMSI profile. The server's refusal names the subscribers. Once
 * changed, the screen follows the HSS's answer for each subscriber (the job of the change), with a retry of those
 * it refused.
 */
import { GlobeNetworkIcon } from '@blueprintjs/icons';
import { Callout, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { JobProgress } from '@web/ui/jobs/JobProgress';
import { Choice, RangeForm, serverFieldText, useRangeInput } from './RangeFields';
import { useGetRoamingProfilesQuery, usePostSubscribersRoamingProfileMutation } from './rangeApi';

const ID = /^\d{1,10}$/;

export function RoamingRangeForm() {
  const intl = useIntl();
  const input = useRangeInput();
  const [profileId, setProfileId] = useState('');
  const [sourceId, setSourceId] = useState('');
  const [tried, setTried] = useState(false);
  const profiles = useGetRoamingProfilesQuery({});
  const [change, state] = usePostSubscribersRoamingProfileMutation();
  const options = profiles.isError
    ? undefined
    : (profiles.data ?? []).map((p) => ({ value: p.id, label: intl.formatMessage({ id: 'assign.profile.option' }, { name: p.name, slots: p.slots }) }));
  const profileMissing = !ID.test(profileId);
  const sourceWrong = sourceId !== '' && !ID.test(sourceId);

  const submit = (rangeHolds: boolean) => {
    setTried(true);
    if (!rangeHolds || profileMissing || sourceWrong) return;
    change({
      roamingProfileId: Number(profileId),
      range: input.range,
      rangeType: input.type,
      ...(sourceId ? { sourceRoamingProfileId: Number(sourceId) } : {}),
    });
  };

  /** The form's check of a profile field, else the server's. */
  const profileError = (field: string, wrong: boolean, messageId: string) =>
    tried && wrong ? intl.formatMessage({ id: messageId }) : serverFieldText(intl, state.error, field);
  const done = state.isSuccess && state.data;
  return (
    <RangeForm
      name="roaming"
      input={input}
      intro="assign.roaming.intro"
      submit="assign.roaming.submit"
      icon={<GlobeNetworkIcon />}
      withType
      call={state}
      inline={['roamingProfileId', 'sourceRoamingProfileId']}
      onSubmit={submit}
      result={
        done && (
          <>
            <Callout intent={Intent.SUCCESS} className="portal-assign-callout" role="status" data-testid="roaming-done">
              <FormattedMessage id="assign.roaming.done" values={{ changed: done.changed, total: done.total, unchanged: done.unchanged }} />
            </Callout>
            {done.jobId !== undefined && (
              <section className="portal-assign-progress" data-testid="roaming-job">
                <JobProgress key={done.jobId} id={done.jobId} />
              </section>
            )}
          </>
        )
      }
    >
      <Choice
        id="roaming-source"
        label={intl.formatMessage({ id: 'assign.roaming.source' })}
        value={sourceId}
        onChange={setSourceId}
        options={options}
        error={profileError('sourceRoamingProfileId', sourceWrong, 'validation.roamingProfile.unknown')}
        testId="roaming-source"
      />
      <Choice
        id="roaming-target"
        label={intl.formatMessage({ id: 'assign.roaming.target' })}
        value={profileId}
        onChange={setProfileId}
        options={options}
        error={profileError('roamingProfileId', profileMissing, 'validation.roamingProfile.required')}
        required
        testId="roaming-target"
      />
    </RangeForm>
  );
}
