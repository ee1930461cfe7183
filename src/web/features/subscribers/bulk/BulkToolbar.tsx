/** The bulk actions the user's role allows on the list's selection, as one menu; each opens its dialog. */
import { Button, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { CaretDownIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { hasPrivilege } from '@shared/privileges';
import { selectPrivileges } from '@web/core/authSlice';
import { useAppSelector } from '@web/core/hooks';
import type { ListSelection } from '@web/engine/EntityListPage';
import { useCaller } from '@web/core/useCaller';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { AddToGroupDialog } from './AddToGroupDialog';
import { BulkDialog } from './BulkDialog';
import { BULK_ACTIONS, type BulkAction } from './bulkApi';

/** What each action needs beyond Subscribers, as the server checks it: a detail panel, or moving subscribers. */
const NEEDS: Partial<Record<BulkAction, [string, string?]>> = {
  suspend: ['SubscriberDetails', 'Status'],
  reactivate: ['SubscriberDetails', 'Status'],
  'pricing-plan': ['SubscriberDetails', 'Services'],
  'roaming-profile': ['SubscriberDetails', 'RoamingProfile'],
  'group-name': ['SubscriberDetails', 'GroupName'],
  move: ['MoveSubscribers'],
};

export function useBulkActions(): BulkAction[] {
  const privileges = useAppSelector(selectPrivileges) ?? [];
  const admin = useIsAdmin();
  return BULK_ACTIONS.filter((action) => {
    const need = NEEDS[action];
    return admin || !need || hasPrivilege(privileges, need[0], need[1]);
  });
}

export function BulkToolbar({ selection, onStarted }: { selection: ListSelection; onStarted: (jobId: number) => void }) {
  const intl = useIntl();
  const actions = useBulkActions();
  const caller = useCaller();
  const [open, setOpen] = useState<BulkAction | null>(null);
  // Adding to a group takes the ticked rows (the Subscribers privilege is enough: groups are the caller's own).
  const [grouping, setGrouping] = useState(false);
  return (
    <>
      <PopoverNext
        placement="bottom-end"
        content={
          <Menu aria-label={intl.formatMessage({ id: 'bulk.actions' })} data-testid="bulk-menu">
            {actions.map((action) => (
              <MenuItem
                key={action}
                text={intl.formatMessage({ id: `bulk.action.${action}` })}
                onClick={() => setOpen(action)}
                data-testid={`bulk-${action}`}
              />
            ))}
            {/* Groups are the reseller's: its account users use them but add no members (the server refuses). */}
            {caller?.accountId === null && (
              <MenuItem
                text={intl.formatMessage({ id: 'bulk.action.add-to-group' })}
                disabled={!('ids' in selection.target)}
                onClick={() => setGrouping(true)}
                data-testid="bulk-add-to-group"
              />
            )}
          </Menu>
        }
      >
        <Button intent="primary" endIcon={<CaretDownIcon />} data-testid="bulk-actions">
          {intl.formatMessage({ id: 'bulk.actions' })}
        </Button>
      </PopoverNext>
      {grouping && <AddToGroupDialog selection={selection} onClose={() => setGrouping(false)} />}
      {open && <BulkDialog action={open} selection={selection} onClose={() => setOpen(null)} onStarted={onStarted} />}
    </>
  );
}
