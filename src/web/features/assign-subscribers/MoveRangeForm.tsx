/** Moves the caller's subscribers of a range to another account, all or none. */
import { SwapHorizontalIcon } from '@blueprintjs/icons';
import { Callout, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { useReferenceOptionsQuery } from '@web/engine/referenceOptions';
import { Choice, RangeForm, serverFieldText, useRangeInput } from './RangeFields';
import { usePostSubscribersMoveMutation } from './rangeApi';

export function MoveRangeForm() {
  const intl = useIntl();
  const input = useRangeInput();
  const [accountId, setAccountId] = useState('');
  const [tried, setTried] = useState(false);
  const accounts = useReferenceOptionsQuery(['account']);
  const [move, state] = usePostSubscribersMoveMutation();
  const options = accounts.isError ? undefined : (accounts.data?.account ?? []).map((o) => ({ value: Number(o.value), label: o.label }));
  const accountMissing = !/^\d{1,10}$/.test(accountId);

  const submit = (rangeHolds: boolean) => {
    setTried(true);
    if (rangeHolds && !accountMissing) move({ accountId: Number(accountId), range: input.range, rangeType: input.type });
  };

  const accountError = tried && accountMissing ? intl.formatMessage({ id: 'assign.account.required' }) : serverFieldText(intl, state.error, 'accountId');
  const done = state.isSuccess && state.data;
  return (
    <RangeForm
      name="move"
      input={input}
      intro="assign.move.intro"
      submit="assign.move.submit"
      icon={<SwapHorizontalIcon />}
      withType
      call={state}
      inline={['accountId']}
      onSubmit={submit}
      result={
        done && (
          <Callout intent={Intent.SUCCESS} className="portal-assign-callout" role="status" data-testid="move-done">
            <FormattedMessage id="assign.move.done" values={{ changed: done.changed, total: done.total, unchanged: done.unchanged }} />{' '}
            <Link to={`/subscribers?searchBy=accountId&searchKey=${done.accountId}&page=1`} data-testid="move-show">
              <FormattedMessage id="assign.move.show" />
            </Link>
          </Callout>
        )
      }
    >
      <Choice
        id="move-account"
        label={intl.formatMessage({ id: 'assign.account' })}
        value={accountId}
        onChange={setAccountId}
        options={options}
        error={accountError}
        required
        testId="move-account"
      />
    </RangeForm>
  );
}
