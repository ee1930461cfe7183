/**
 * `/services/{id}`: a reseller's account and settings. Its logo (the caller's own reseller), the accent colour of
 * the shell, the form styles its users' screens take (with a live preview before saving), its two-factor rule,
 * and links to its webhooks, payment methods and the API documentation.
 */
import { Button, Callout, Card, FormGroup, H2, H3, HTMLSelect, InputGroup, Intent, Slider, Switch, Tag, type InputGroupProps } from '@blueprintjs/core';
import { BookIcon, CreditCardIcon, FloppyDiskIcon, GlobeNetworkIcon, MediaIcon, ResetIcon, TickCircleIcon } from '@blueprintjs/icons';
import { useMemo, useState, type CSSProperties, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useParams } from 'react-router-dom';
import { DEFAULT_FORM_STYLES, FORM_FONT_NAMES, formStyleVariables, MAX_RADIUS_PX, type FormFont, type FormStyles } from '@shared/formStyles';
import { hasPrivilege } from '@shared/privileges';
import { useGetUserUiPrivilegesQuery } from '@web/core/authApi';
import { selectIsAdmin } from '@web/core/authSlice';
import { fieldErrorsOf } from '@web/core/fieldErrors';
import { useAppSelector } from '@web/core/hooks';
import { messageOr } from '@web/core/messages';
import { DEFAULT_ACCENT } from '@web/core/theme';
import { usePutAdminTwoFactorResellersByIdMutation } from '@web/core/twoFactorApi';
import { Loading } from '@web/ui/Loading';
import { ResellerLogoDialog } from '@web/ui/ResellerLogoDialog';
import { showToast } from '@web/ui/toaster';
import { useGetResellersByIdSettingsQuery, usePutResellersByIdSettingsMutation, type ResellerSettings } from './servicesApi';
import './services.css';

const HEX = /^#[0-9a-f]{6}$/i;

/** A colour: the browser's picker beside the hex text, either one editing the value. */
function ColourField({
  id,
  label,
  value,
  onChange,
  error,
  disabled,
}: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  disabled: boolean;
}) {
  const picker: InputGroupProps['rightElement'] = (
    <input
      type="color"
      className="portal-colour-swatch"
      aria-label={label}
      value={HEX.test(value) ? value : '#000000'}
      disabled={disabled}
      onChange={(e) => onChange(e.currentTarget.value)}
      data-testid={`${id}-picker`}
    />
  );
  return (
    <FormGroup label={label} labelFor={id} intent={error ? Intent.DANGER : Intent.NONE} helperText={error}>
      <InputGroup
        id={id}
        dir="ltr"
        value={value}
        disabled={disabled}
        maxLength={7}
        intent={error ? Intent.DANGER : Intent.NONE}
        rightElement={picker}
        onValueChange={(v) => onChange(v.trim())}
        data-testid={id}
      />
    </FormGroup>
  );
}

function StylesForm({ settings }: { settings: ResellerSettings }) {
  const intl = useIntl();
  const [save, { isLoading: saving }] = usePutResellersByIdSettingsMutation();
  const [accent, setAccent] = useState(settings.accentColorHex ?? DEFAULT_ACCENT);
  const [styles, setStyles] = useState<FormStyles>((settings.formStyles as FormStyles | null) ?? DEFAULT_FORM_STYLES);
  const [custom, setCustom] = useState(settings.formStyles !== null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const editable = settings.mayEdit;

  const change = (patch: Partial<FormStyles>) => {
    setCustom(true);
    setStyles((s) => ({ ...s, ...patch }));
  };
  const local: Record<string, string> = {};
  if (!HEX.test(accent)) local.accentColorHex = intl.formatMessage({ id: 'validation.colour.hex' });
  if (!HEX.test(styles.primaryHex)) local['formStyles.primaryHex'] = intl.formatMessage({ id: 'validation.colour.hex' });
  if (!HEX.test(styles.secondaryHex)) local['formStyles.secondaryHex'] = intl.formatMessage({ id: 'validation.colour.hex' });
  const shown = { ...errors, ...local };
  const preview = useMemo(() => formStyleVariables(HEX.test(styles.primaryHex) && HEX.test(styles.secondaryHex) ? styles : DEFAULT_FORM_STYLES), [styles]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (Object.keys(local).length) return;
    const result = await save({ id: settings.resellerId, body: { accentColorHex: accent.toLowerCase(), formStyles: custom ? styles : null } });
    if (result.error) {
      const fields = fieldErrorsOf(result.error as Parameters<typeof fieldErrorsOf>[0]);
      setErrors(Object.fromEntries(Object.entries(fields).map(([f, e]) => [f, messageOr(intl, e.messageId, e.message)])));
      showToast({ message: intl.formatMessage({ id: 'services.saveFailed' }), intent: Intent.DANGER });
      return;
    }
    setErrors({});
    showToast({ message: intl.formatMessage({ id: 'services.saved' }), intent: Intent.SUCCESS, icon: <TickCircleIcon /> });
  };

  return (
    <form onSubmit={onSubmit} noValidate data-testid="services-styles-form">
      <Card className="portal-services-section" data-testid="services-accent">
        <H3>
          <FormattedMessage id="services.accent.title" />
        </H3>
        <p className="bp6-text-muted">
          <FormattedMessage id="services.accent.hint" />
        </p>
        <ColourField
          id="services-accent-colour"
          label={intl.formatMessage({ id: 'services.accent.colour' })}
          value={accent}
          onChange={setAccent}
          error={shown.accentColorHex}
          disabled={!editable}
        />
      </Card>
      <Card className="portal-services-section" data-testid="services-styles">
        <H3>
          <FormattedMessage id="services.styles.title" />
        </H3>
        <p className="bp6-text-muted">
          <FormattedMessage id="services.styles.hint" />
        </p>
        <div className="portal-services-styles">
          <div className="portal-services-fields">
            <ColourField
              id="services-primary"
              label={intl.formatMessage({ id: 'services.styles.primary' })}
              value={styles.primaryHex}
              onChange={(primaryHex) => change({ primaryHex })}
              error={shown['formStyles.primaryHex']}
              disabled={!editable}
            />
            <ColourField
              id="services-secondary"
              label={intl.formatMessage({ id: 'services.styles.secondary' })}
              value={styles.secondaryHex}
              onChange={(secondaryHex) => change({ secondaryHex })}
              error={shown['formStyles.secondaryHex']}
              disabled={!editable}
            />
            <FormGroup label={intl.formatMessage({ id: 'services.styles.font' })} labelFor="services-font" helperText={shown['formStyles.font']}>
              <HTMLSelect
                id="services-font"
                fill
                value={styles.font}
                disabled={!editable}
                onChange={(e) => change({ font: e.currentTarget.value as FormFont })}
                data-testid="services-font"
                options={FORM_FONT_NAMES.map((f) => ({ value: f, label: intl.formatMessage({ id: `services.font.${f}` }) }))}
              />
            </FormGroup>
            <FormGroup label={intl.formatMessage({ id: 'services.styles.radius' })} helperText={shown['formStyles.radiusPx']}>
              <Slider
                min={0}
                max={MAX_RADIUS_PX}
                stepSize={1}
                labelStepSize={4}
                value={styles.radiusPx}
                disabled={!editable}
                onChange={(radiusPx) => change({ radiusPx })}
                labelRenderer={(v, opts) => (opts?.isHandleTooltip ? intl.formatMessage({ id: 'services.styles.px' }, { value: v }) : intl.formatNumber(v))}
                handleHtmlProps={{ 'aria-label': intl.formatMessage({ id: 'services.styles.radius' }) }}
                data-testid="services-radius"
              />
            </FormGroup>
          </div>
          <div
            className="portal-form-styles portal-form-preview"
            style={preview as CSSProperties}
            data-testid="services-preview"
            aria-label={intl.formatMessage({ id: 'services.preview.title' })}
            role="group"
          >
            <H3>
              <FormattedMessage id="services.preview.title" />
            </H3>
            <FormGroup label={intl.formatMessage({ id: 'services.preview.field' })} labelFor="services-preview-input">
              <InputGroup id="services-preview-input" readOnly value={intl.formatMessage({ id: 'services.preview.value' })} />
            </FormGroup>
            <div className="portal-services-preview-actions">
              <Button intent={Intent.PRIMARY} tabIndex={-1} data-testid="services-preview-primary">
                <FormattedMessage id="services.preview.primary" />
              </Button>
              <Button tabIndex={-1}>
                <FormattedMessage id="services.preview.secondary" />
              </Button>
              <a href="#preview" onClick={(e) => e.preventDefault()} tabIndex={-1}>
                <FormattedMessage id="services.preview.link" />
              </a>
            </div>
          </div>
        </div>
      </Card>
      {editable && (
        <div className="portal-services-actions">
          <Button
            icon={<ResetIcon />}
            disabled={saving}
            onClick={() => {
              setCustom(false);
              setStyles(DEFAULT_FORM_STYLES);
              setAccent(DEFAULT_ACCENT);
            }}
            data-testid="services-reset"
          >
            <FormattedMessage id="services.reset" />
          </Button>
          <Button type="submit" intent={Intent.PRIMARY} icon={<FloppyDiskIcon />} loading={saving} data-testid="services-save">
            <FormattedMessage id="form.save" />
          </Button>
        </div>
      )}
    </form>
  );
}

function TwoFactorSection({ settings, onChanged }: { settings: ResellerSettings; onChanged(): void }) {
  const intl = useIntl();
  const isAdmin = useAppSelector(selectIsAdmin);
  const [save, { isLoading }] = usePutAdminTwoFactorResellersByIdMutation();
  return (
    <Card className="portal-services-section" data-testid="services-two-factor">
      <H3>
        <FormattedMessage id="services.twoFactor.title" />
      </H3>
      {isAdmin ? (
        <Switch
          checked={settings.requireTwoFactor}
          disabled={isLoading}
          label={intl.formatMessage({ id: 'services.twoFactor.require' })}
          data-testid="services-two-factor-switch"
          onChange={async (e) => {
            const result = await save({ id: settings.resellerId, body: { requireTwoFactor: e.currentTarget.checked } });
            if (result.error) showToast({ message: intl.formatMessage({ id: 'app.error.generic' }), intent: Intent.DANGER });
            onChanged();
          }}
        />
      ) : (
        <p>
          <Tag intent={settings.requireTwoFactor ? Intent.SUCCESS : Intent.NONE} data-testid="services-two-factor-state">
            <FormattedMessage id={settings.requireTwoFactor ? 'services.twoFactor.required' : 'services.twoFactor.optional'} />
          </Tag>{' '}
          <span className="bp6-text-muted">
            <FormattedMessage id="services.twoFactor.adminOnly" />
          </span>
        </p>
      )}
    </Card>
  );
}

export default function ServicesPage() {
  const intl = useIntl();
  const { id = '' } = useParams();
  const valid = /^-?\d{1,10}$/.test(id);
  const { data: settings, error, refetch } = useGetResellersByIdSettingsQuery(Number(id), { skip: !valid });
  const { data: granted = [] } = useGetUserUiPrivilegesQuery();
  const isAdmin = useAppSelector(selectIsAdmin);
  const [changingLogo, setChangingLogo] = useState(false);
  if (!valid || error)
    return (
      <Callout intent={Intent.WARNING} data-testid="services-not-found">
        <FormattedMessage id="services.notFound" />
      </Callout>
    );
  if (!settings) return <Loading />;
  const may = (privilege: string) => isAdmin || hasPrivilege(granted, privilege);
  return (
    <div className="portal-services" data-testid="services-page">
      <H2>
        <FormattedMessage id="services.title" values={{ name: settings.name }} />
      </H2>
      {!settings.mayEdit && (
        <Callout intent={Intent.PRIMARY} className="portal-services-section" data-testid="services-read-only">
          <FormattedMessage id="services.readOnly" />
        </Callout>
      )}
      <Card className="portal-services-section" data-testid="services-logo">
        <H3>
          <FormattedMessage id="services.logo.title" />
        </H3>
        {settings.ownReseller && settings.mayEdit ? (
          <>
            <p className="bp6-text-muted">
              <FormattedMessage id="logo.dialog.hint" />
            </p>
            <Button icon={<MediaIcon />} onClick={() => setChangingLogo(true)} data-testid="services-logo-change">
              <FormattedMessage id="services.logo.change" />
            </Button>
            <ResellerLogoDialog isOpen={changingLogo} onClose={() => setChangingLogo(false)} />
          </>
        ) : (
          <p className="bp6-text-muted">
            <FormattedMessage id="services.logo.ownOnly" />
          </p>
        )}
      </Card>
      {/* Saved values coming back start the form afresh. */}
      <StylesForm key={JSON.stringify([settings.accentColorHex, settings.formStyles])} settings={settings} />
      <TwoFactorSection settings={settings} onChanged={refetch} />
      <Card className="portal-services-section" data-testid="services-links">
        <H3>
          <FormattedMessage id="services.links.title" />
        </H3>
        <ul className="portal-services-links">
          {may('Resellers') && (
            <li>
              <GlobeNetworkIcon /> <Link to={`/reseller/${settings.resellerId}`}>{intl.formatMessage({ id: 'services.links.webhooks' })}</Link>
            </li>
          )}
          {may('PaymentMethods') && (
            <li>
              <CreditCardIcon /> <Link to="/payment-methods">{intl.formatMessage({ id: 'services.links.paymentMethods' })}</Link>
            </li>
          )}
          {may('Documentation') && (
            <li>
              <BookIcon /> <Link to="/api/documentation">{intl.formatMessage({ id: 'services.links.documentation' })}</Link>
            </li>
          )}
        </ul>
      </Card>
    </div>
  );
}
