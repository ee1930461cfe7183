/**
 * Adds the ticked subscribers to one of the caller's static groups: the server answers an outcome per subscriber
 * (added, already a member, not one the group may hold), summed up here.
 */
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, Intent } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { entityEndpoints } from '@web/core/endpoints';
import { findSchema } from '@web/core/schemas';
import { groupSubscribersPath, usePostSubscriberGroupsByIdMembersMutation, type MemberOutcome } from '@web/core/subscriberGroupsApi';
import type { ListSelection } from '@web/engine/EntityListPage';
import { errorText } from '../operations';

const groups = entityEndpoints(findSchema('subscriberGroup')!);
const OUTCOMES: MemberOutcome[] = ['added', 'already', 'notVisible'];

export function AddToGroupDialog({ selection, onClose }: { selection: ListSelection; onClose: () => void }) {
  const intl = useIntl();
  const list = groups.list!.useQuery();
  const [groupId, setGroupId] = useState('');
  const [add, state] = usePostSubscriberGroupsByIdMembersMutation();
  const [counts, setCounts] = useState<Record<MemberOutcome, number> | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = 'ids' in selection.target ? selection.target.ids.map(Number) : [];
  const staticGroups = (list.data ?? []).filter((g) => g.kind === 'static');

  // The selection is let go once the outcome has been read: the list's toolbar, and this dialog with it, then close.
  const done = () => {
    onClose();
    if (counts) selection.clear();
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!groupId) return setProblem(intl.formatMessage({ id: 'subscriberGroup.pick.required' }));
    setProblem(null);
    try {
      const answer = await add({ id: Number(groupId), body: { subscriberIds: ids } }).unwrap();
      const sums = { added: 0, already: 0, notVisible: 0 };
      for (const r of answer.results) sums[r.outcome] += 1;
      setCounts(sums);
    } catch (e) {
      setProblem(errorText(intl, e as never));
    }
  }

  return (
    <Dialog isOpen onClose={onClose} title={intl.formatMessage({ id: 'bulk.action.add-to-group' })}>
      <form onSubmit={submit} data-testid="add-to-group-dialog">
        <DialogBody>
          {!ids.length ? (
            <Callout intent={Intent.WARNING}>
              <FormattedMessage id="subscriberGroup.add.ticked" />
            </Callout>
          ) : counts ? (
            <Callout intent={Intent.SUCCESS} data-testid="add-to-group-result">
              {OUTCOMES.filter((o) => counts[o] > 0).map((o) => (
                <div key={o}>
                  <FormattedMessage id={`subscriberGroup.outcome.${o}`} values={{ count: counts[o] }} />
                </div>
              ))}
              <Link to={groupSubscribersPath(groupId)} onClick={done} data-testid="add-to-group-open">
                <FormattedMessage id="subscriberGroup.openInGrid" />
              </Link>
            </Callout>
          ) : (
            <FormGroup
              label={intl.formatMessage({ id: 'subscriberGroup.pick' })}
              labelFor="add-to-group-select"
              helperText={problem}
              intent={problem ? Intent.DANGER : Intent.NONE}
            >
              <HTMLSelect id="add-to-group-select" value={groupId} onChange={(e) => setGroupId(e.currentTarget.value)} fill data-testid="add-to-group-select">
                <option value="">{intl.formatMessage({ id: 'subscriberGroup.pick.placeholder' })}</option>
                {staticGroups.map((g) => (
                  <option key={String(g.id)} value={String(g.id)}>
                    {String(g.name)}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
          )}
          {!counts && ids.length > 0 && (
            <p>
              <FormattedMessage id="subscriberGroup.add.count" values={{ count: ids.length }} />
            </p>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            counts || !ids.length ? (
              <Button onClick={done} data-testid="add-to-group-close">
                <FormattedMessage id="subscriber.close" />
              </Button>
            ) : (
              <>
                <Button onClick={onClose}>
                  <FormattedMessage id="form.cancel" />
                </Button>
                <Button type="submit" intent={Intent.PRIMARY} loading={state.isLoading} data-testid="add-to-group-submit">
                  <FormattedMessage id="subscriberGroup.add.submit" />
                </Button>
              </>
            )
          }
        />
      </form>
    </Dialog>
  );
}
