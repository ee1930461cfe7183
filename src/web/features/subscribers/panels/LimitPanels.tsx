import { Intent, ProgressBar, Tag } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { Loading } from '@web/ui/Loading';
import { usageIntent } from '@web/engine/cells';
import { formatBytes } from '@web/engine/columns';
import { Facts } from '../dialogs';
import { QOS_BLOCK, useGetSubscriberInfoDailyLimitByIdQuery, useGetResellerInfoApiQosSpeedLimitsQuery } from '../subscriberApi';
import { type PanelProps, Panel, useLabel, field, LoadError } from './Panel';

export function QosPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const { data } = useGetSubscriberInfoDailyLimitByIdQuery(subscriber.subscriberId);
  const speeds = useGetResellerInfoApiQosSpeedLimitsQuery();
  const qos = data?.qosThrottling;
  const speed = qos && qos !== QOS_BLOCK ? (speeds.data?.find((s) => s.id === qos)?.name ?? qos) : null;
  return (
    <Panel id="qos" title={label('subscriber.panel.qos')}>
      {!data ? (
        <Loading />
      ) : (
        <Facts
          testId="qos-facts"
          items={[
            [
              label(field('qosThrottling')),
              data.dailyLimitBytes === null
                ? label('subscriber.qos.noLimit')
                : speed
                  ? intl.formatMessage({ id: 'subscriber.qos.throttle' }, { speed })
                  : label('subscriber.qos.block'),
            ],
            [
              label('subscriber.qos.now'),
              data.effect ? (
                <Tag minimal intent={Intent.WARNING}>
                  {label(`subscriber.qos.effect.${data.effect}`)}
                </Tag>
              ) : (
                label('subscriber.qos.fullSpeed')
              ),
            ],
          ]}
        />
      )}
    </Panel>
  );
}

export function DailyLimitPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const { data, error } = useGetSubscriberInfoDailyLimitByIdQuery(subscriber.subscriberId);
  const limit = data?.dailyLimitBytes ?? null;
  return (
    <Panel id="daily-limit" title={label('subscriber.panel.dailyLimit')}>
      {error ? (
        <LoadError error={error} />
      ) : !data ? (
        <Loading />
      ) : (
        <>
          <Facts
            testId="daily-limit-facts"
            items={[
              [label(field('dailyLimitBytes')), limit === null ? label('subscriber.dailyLimit.none') : formatBytes(intl, limit)],
              [label(field('usageTodayBytes')), formatBytes(intl, data.usageTodayBytes)],
            ]}
          />
          {limit !== null && (
            <ProgressBar
              animate={false}
              stripes={false}
              intent={usageIntent(data.usageTodayBytes, limit)}
              value={Math.min(1, data.usageTodayBytes / limit)}
              aria-label={label(field('usageTodayBytes'))}
            />
          )}
        </>
      )}
    </Panel>
  );
}
