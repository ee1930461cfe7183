/**
 * Changes of subscribers from a CSV file: choose the file (required, less than 4 MB, both checked here first),
 * see what the server makes of every line without anything written (the rejected lines with their reasons),
 * then apply the valid lines as a job. The subscriber export's file can be edited and sent back as it is.
 */
import { Button, Callout, Classes, Code, Dialog, DialogBody, DialogFooter, FileInput, HTMLTable, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorText } from '../operations';
import { CSV_MAX_BYTES, useSendSubscriberCsvMutation, type CsvReport } from './bulkApi';
import { CSV_COLUMNS } from '@shared/subscriberCsv';
import { messageOr } from '@web/core/messages';

/** The columns an upload may change, as the subscriber export names them. */

export function CsvUpdateDialog({ onClose, onStarted }: { onClose: () => void; onStarted: (jobId: number) => void }) {
  const intl = useIntl();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string>();
  const [send, sending] = useSendSubscriberCsvMutation();
  const [applying, setApplying] = useState(false);
  const [report, setReport] = useState<CsvReport>();

  const sizeProblem = (chosen: File | null) => (!chosen ? 'validation.file.required' : chosen.size >= CSV_MAX_BYTES ? 'validation.file.tooLarge' : undefined);

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setReport(undefined);
    const local = chosen ? sizeProblem(chosen) : undefined;
    setProblem(local && intl.formatMessage({ id: local }));
  };

  const submit = async (confirm: boolean) => {
    const local = sizeProblem(file);
    if (local || !file) return setProblem(intl.formatMessage({ id: local ?? 'validation.file.required' }));
    setProblem(undefined);
    setApplying(confirm);
    const answer = await send({ file, confirm });
    setApplying(false);
    if (answer.error) {
      setReport(undefined);
      return setProblem(errorText(intl, answer.error));
    }
    if (confirm && answer.data.jobId !== undefined) {
      onStarted(answer.data.jobId);
      onClose();
      return;
    }
    setReport(answer.data);
  };

  const keyOf = (values: Record<string, string>) => values.iccid || values.imsi || '';
  const column = (field: string) => messageOr(intl, `entity.subscriber.field.${field}`, field);

  return (
    <Dialog isOpen onClose={onClose} title={intl.formatMessage({ id: 'bulkCsv.title' })} style={{ width: 680 }}>
      <DialogBody>
        <div data-testid="bulk-csv">
          <p>
            <FormattedMessage id="bulkCsv.intro" values={{ download: intl.formatMessage({ id: 'list.download' }) }} />
          </p>
          <p className={Classes.TEXT_MUTED}>
            <FormattedMessage id="bulkCsv.columns" />{' '}
            {CSV_COLUMNS.map((c, i) => (
              <span key={c}>
                {i > 0 && ', '}
                <Code>{c}</Code>
              </span>
            ))}
          </p>
          <p className={Classes.TEXT_MUTED}>
            <FormattedMessage id="bulkCsv.rules" />
          </p>
          <FileInput
            fill
            text={file?.name ?? intl.formatMessage({ id: 'bulkCsv.choose' })}
            buttonText={intl.formatMessage({ id: 'bulkCsv.browse' })}
            hasSelection={Boolean(file)}
            inputProps={{
              accept: '.csv,text/csv',
              'aria-label': intl.formatMessage({ id: 'bulkCsv.choose' }),
              ...({ 'data-testid': 'bulk-csv-input' } as object),
            }}
            onInputChange={(event) => choose((event.target as HTMLInputElement).files?.[0] ?? null)}
          />
          {problem && (
            <Callout intent={Intent.DANGER} role="alert" className="portal-bulk-csv-problem" data-testid="bulk-csv-problem">
              {problem}
            </Callout>
          )}
          {report && (
            <div data-testid="bulk-csv-report" className="portal-bulk-csv-report">
              <Callout intent={report.rejected.length ? Intent.WARNING : Intent.SUCCESS} data-testid="bulk-csv-summary">
                <FormattedMessage
                  id="bulkCsv.summary"
                  values={{ total: report.total, valid: report.valid, unchanged: report.unchanged, rejected: report.rejected.length }}
                />
              </Callout>
              {report.rejected.length > 0 && (
                // The rejected lines of the checked file inside its dialog, a report the server answers whole and read once: no paging, sorting or search to offer.
                <HTMLTable compact striped className="portal-bulk-reasons" data-testid="bulk-csv-rejected">
                  <thead>
                    <tr>
                      <th>
                        <FormattedMessage id="bulkCsv.line" />
                      </th>
                      <th>
                        <FormattedMessage id="bulkCsv.subscriber" />
                      </th>
                      <th>
                        <FormattedMessage id="bulkCsv.reasons" />
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.rejected.map((line) => (
                      <tr key={line.line} data-line={line.line}>
                        <td>{line.line}</td>
                        <td>
                          <bdi>{keyOf(line.values)}</bdi>
                        </td>
                        <td>
                          {line.fields.map((f) => (
                            <div key={`${f.field}.${f.rule}`}>
                              {f.field ? `${column(f.field)}: ` : ''}
                              {messageOr(intl, f.messageId, f.message)}
                            </div>
                          ))}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </HTMLTable>
              )}
            </div>
          )}
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{intl.formatMessage({ id: 'form.cancel' })}</Button>
            <Button
              onClick={() => submit(false)}
              loading={sending.isLoading && !applying}
              intent={report ? Intent.NONE : Intent.PRIMARY}
              data-testid="bulk-csv-check"
            >
              <FormattedMessage id="bulkCsv.check" />
            </Button>
            {report && (
              <Button intent={Intent.PRIMARY} disabled={report.valid === 0} loading={applying} onClick={() => submit(true)} data-testid="bulk-csv-apply">
                <FormattedMessage id="bulkCsv.apply" values={{ count: report.valid }} />
              </Button>
            )}
          </>
        }
      />
    </Dialog>
  );
}
