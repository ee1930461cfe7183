/**
 * Rules by file: choose a CSV (checked here first: one is required and it must be under 4 MB), let the server
 * check every line without writing anything and list the rejected ones with their reasons, then apply the valid
 * lines, which replace the plan's rules, once a dialog has shown what that changes. Download gives the rules in
 * the same columns, so a file read back is the same rules.
 */
import { DownloadIcon, ErrorIcon, TickIcon, UploadIcon } from '@blueprintjs/icons';
import { Button, Callout, Classes, FileInput, H3, HTMLTable, Intent, ProgressBar } from '@blueprintjs/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { apiErrorOf } from '@web/core/apiErrors';
import { showToast } from '@web/ui/toaster';
import { RuleChangesDialog } from './RuleChangesDialog';
import { ROAMING_RULES } from './ruleKinds';
import { useDownloadRulesMutation, useSendRuleFileMutation, type RuleFileReport } from './rulesApi';
import { messageOr } from '@web/core/messages';

/** Rule files must be less than 4 MB. */
export const RULE_FILE_MAX_BYTES = 4 * 1024 * 1024;

/** A plan's rules as a file: downloaded, and with `readOnly` unset, checked and applied from one. */
export function RuleFilePanel({ planId, readOnly = false }: { planId: string; readOnly?: boolean }) {
  const intl = useIntl();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [report, setReport] = useState<RuleFileReport | null>(null);
  const [send, sending] = useSendRuleFileMutation();
  const [download, downloading] = useDownloadRulesMutation();
  const [applying, setApplying] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const message = (id: string, fallback: string) => messageOr(intl, id, fallback);

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setReport(null);
    setProblem(chosen && chosen.size >= RULE_FILE_MAX_BYTES ? intl.formatMessage({ id: 'validation.file.tooLarge' }) : null);
  };

  const submit = async (confirm: boolean) => {
    if (!file) return setProblem(intl.formatMessage({ id: 'validation.file.required' }));
    if (file.size >= RULE_FILE_MAX_BYTES) return setProblem(intl.formatMessage({ id: 'validation.file.tooLarge' }));
    setProblem(null);
    setApplying(confirm);
    const answer = await send({ kind: 'roaming', planId, file, confirm });
    setApplying(false);
    setConfirming(false);
    if (answer.error) {
      const error = apiErrorOf(answer.error);
      const field = error?.fields?.[0];
      setReport(null);
      return setProblem(field ? message(field.messageId, field.message) : (error?.message ?? intl.formatMessage({ id: 'app.error.generic' })));
    }
    setReport(answer.data);
    if (confirm) {
      showToast({ intent: Intent.SUCCESS, icon: <TickIcon />, message: intl.formatMessage({ id: 'ruleFile.applied' }, { count: answer.data.applied }) });
    }
  };

  const onDownload = async () => {
    try {
      await download({ planId }).unwrap();
    } catch {
      showToast({ intent: Intent.DANGER, icon: <ErrorIcon />, message: intl.formatMessage({ id: 'ruleFile.downloadError' }) });
    }
  };

  const header = (field: string) => {
    const title = ROAMING_RULES.schema.properties[field]?.title;
    return title ? intl.formatMessage({ id: title }) : field;
  };

  return (
    <section className="portal-rule-file" data-testid="rule-file">
      <H3>
        <FormattedMessage id="ruleFile.title" />
      </H3>
      {!readOnly && (
        <p className={Classes.TEXT_MUTED}>
          <FormattedMessage id="ruleFile.hint" />
        </p>
      )}
      <div className="portal-rule-file-actions">
        {!readOnly && (
          <FileInput
            text={file?.name ?? intl.formatMessage({ id: 'ruleFile.choose' })}
            buttonText={intl.formatMessage({ id: 'ruleFile.browse' })}
            hasSelection={Boolean(file)}
            inputProps={{
              accept: '.csv,text/csv',
              'aria-label': intl.formatMessage({ id: 'ruleFile.choose' }),
              ...({ 'data-testid': 'rule-file-input' } as object),
            }}
            onInputChange={(event) => choose((event.target as HTMLInputElement).files?.[0] ?? null)}
          />
        )}
        {!readOnly && (
          <Button icon={<UploadIcon />} onClick={() => submit(false)} loading={sending.isLoading && !applying} data-testid="rule-file-check">
            <FormattedMessage id="ruleFile.check" />
          </Button>
        )}
        <Button icon={<DownloadIcon />} onClick={onDownload} loading={downloading.isLoading} data-testid="rule-file-download">
          <FormattedMessage id="ruleFile.download" />
        </Button>
      </div>
      {problem && (
        <Callout intent={Intent.DANGER} role="alert" data-testid="rule-file-problem">
          {problem}
        </Callout>
      )}
      {report && (
        <div data-testid="rule-file-report">
          <Callout intent={report.applied > 0 || !report.rejected.length ? Intent.SUCCESS : Intent.WARNING}>
            {report.applied > 0 ? (
              <FormattedMessage id="ruleFile.appliedSummary" values={{ count: report.applied }} />
            ) : (
              <FormattedMessage id="ruleFile.summary" values={{ total: report.total, valid: report.valid, rejected: report.rejected.length }} />
            )}
          </Callout>
          {report.rejected.length > 0 && (
            // The rejected lines of the checked file, a report the server answers whole and read once: no paging, sorting or search to offer.
            <HTMLTable compact striped className="portal-rule-file-rejected" data-testid="rule-file-rejected">
              <thead>
                <tr>
                  <th>
                    <FormattedMessage id="ruleFile.line" />
                  </th>
                  <th>
                    <FormattedMessage id="ruleFile.reasons" />
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.rejected.map((line) => (
                  <tr key={line.line} data-line={line.line}>
                    <td>{line.line}</td>
                    <td>
                      {line.fields.map((f) => (
                        <div key={`${f.field}.${f.rule}`}>
                          {f.field ? `${header(f.field)}: ` : ''}
                          {message(f.messageId, f.message)}
                        </div>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          )}
          {report.applied === 0 && (
            <div className="portal-rule-file-actions">
              <Button intent={Intent.PRIMARY} disabled={report.valid === 0 || applying} onClick={() => setConfirming(true)} data-testid="rule-file-apply">
                <FormattedMessage id="ruleFile.apply" values={{ count: report.valid }} />
              </Button>
              {report.valid === 0 ? (
                <span className={Classes.TEXT_MUTED} data-testid="rule-file-apply-blocked">
                  <FormattedMessage id="ruleFile.nothingToApply" />
                </span>
              ) : (
                <span className={Classes.TEXT_MUTED}>
                  <FormattedMessage id="ruleFile.replaces" />
                </span>
              )}
            </div>
          )}
          {report.changes && (
            <RuleChangesDialog
              isOpen={confirming}
              changes={report.changes}
              schema={ROAMING_RULES.schema}
              count={report.valid}
              applying={applying}
              onCancel={() => setConfirming(false)}
              onApply={() => submit(true)}
            />
          )}
          {applying && (
            <div data-testid="rule-file-progress">
              <ProgressBar intent={Intent.PRIMARY} />
              <FormattedMessage id="ruleFile.applying" />
            </div>
          )}
        </div>
      )}
    </section>
  );
}
