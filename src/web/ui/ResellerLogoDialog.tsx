import { MediaIcon, TickCircleIcon, TrashIcon } from '@blueprintjs/icons';
import { Button, Dialog, DialogBody, DialogFooter, FileInput, FormGroup, Intent } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { showToast } from '@web/ui/toaster';
import { apiErrorOf } from '@web/core/apiErrors';
import { fieldErrorsOf } from '@web/core/fieldErrors';
import { LOGO_ACCEPT, LOGO_MAX_BYTES, useDeleteUserLogoMutation, useUploadLogoMutation } from '@web/core/logoApi';
import { messageOr } from '@web/core/messages';

interface Props {
  isOpen: boolean;
  onClose(): void;
  /** After the closing transition: where the focus goes back to. */
  onClosed?(): void;
}

/** What is wrong with the chosen file before it is sent, as a message id. */
export function logoFileProblem(file: File | null): string | undefined {
  if (!file || file.size === 0) return 'validation.file.required';
  if (file.size > LOGO_MAX_BYTES) return 'validation.file.tooLarge';
  return undefined;
}

/** Uploads or removes the logo of the user's reseller; its sub-resellers without one of their own show it too. */
export function ResellerLogoDialog({ isOpen, onClose, onClosed }: Props) {
  const intl = useIntl();
  const [upload, { isLoading: uploading }] = useUploadLogoMutation();
  const [remove, { isLoading: removing }] = useDeleteUserLogoMutation();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();

  const close = () => {
    setFile(null);
    setError(undefined);
    onClose();
  };

  const failure = (result: { error?: unknown }) => {
    const err = result.error as Parameters<typeof fieldErrorsOf>[0];
    const logo = fieldErrorsOf(err).logo;
    const apiError = apiErrorOf(err);
    setError(logo ? messageOr(intl, logo.messageId, logo.message) : (apiError?.message ?? intl.formatMessage({ id: 'app.error.generic' })));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = logoFileProblem(file);
    if (problem || !file) {
      setError(messageOr(intl, problem ?? 'validation.file.required'));
      return;
    }
    const result = await upload(file);
    if ('error' in result) return failure(result);
    showToast({ message: intl.formatMessage({ id: 'logo.uploaded' }), intent: Intent.SUCCESS, icon: <TickCircleIcon /> });
    close();
  };

  const onRemove = async () => {
    const result = await remove();
    if ('error' in result) return failure(result);
    showToast({ message: intl.formatMessage({ id: 'logo.removed' }), intent: Intent.SUCCESS, icon: <TickCircleIcon /> });
    close();
  };

  return (
    <Dialog isOpen={isOpen} onClose={close} onClosed={onClosed} title={intl.formatMessage({ id: 'logo.dialog.title' })} icon={<MediaIcon />}>
      <form onSubmit={onSubmit} noValidate data-testid="logo-form">
        <DialogBody>
          <p>
            <FormattedMessage id="logo.dialog.hint" />
          </p>
          <FormGroup
            label={intl.formatMessage({ id: 'logo.dialog.file' })}
            labelFor="logo-file"
            intent={error ? Intent.DANGER : Intent.NONE}
            helperText={
              error ? (
                <span id="logo-file-error" role="alert" data-testid="logo-error">
                  {error}
                </span>
              ) : undefined
            }
          >
            <FileInput
              fill
              text={file?.name ?? intl.formatMessage({ id: 'logo.dialog.choose' })}
              hasSelection={Boolean(file)}
              buttonText={intl.formatMessage({ id: 'logo.dialog.browse' })}
              inputProps={{
                id: 'logo-file',
                accept: LOGO_ACCEPT,
                'aria-invalid': Boolean(error),
                'aria-describedby': error ? 'logo-file-error' : undefined,
              }}
              onInputChange={(e) => {
                const chosen = e.currentTarget.files?.[0] ?? null;
                setFile(chosen);
                const problem = chosen ? logoFileProblem(chosen) : undefined;
                setError(problem ? messageOr(intl, problem) : undefined);
              }}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={close} data-testid="logo-close">
                <FormattedMessage id="logo.dialog.close" />
              </Button>
              <Button type="submit" intent={Intent.PRIMARY} loading={uploading} disabled={removing} data-testid="logo-upload">
                <FormattedMessage id="logo.dialog.upload" />
              </Button>
            </>
          }
        >
          <Button
            variant="minimal"
            intent={Intent.DANGER}
            icon={<TrashIcon />}
            onClick={onRemove}
            loading={removing}
            disabled={uploading}
            data-testid="logo-remove"
          >
            <FormattedMessage id="logo.dialog.remove" />
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
