import {
  BankAccountIcon,
  CaretDownIcon,
  CreditCardIcon,
  DollarIcon,
  KeyIcon,
  LogOutIcon,
  MediaIcon,
  ShieldIcon,
  SwapHorizontalIcon,
  TagIcon,
  TickIcon,
  TranslateIcon,
} from '@blueprintjs/icons';
import { Button, Classes, Menu, MenuDivider, MenuItem, PopoverNext, Switch } from '@blueprintjs/core';
import { useRef, useState, type ReactElement } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { hasPrivilege } from '@shared/privileges';
import { ChangePasswordDialog } from '@web/features/account-security/ChangePasswordDialog';
import { cookieConsentGiven, setCookieConsent } from '@web/features/login/CookieConsent';
import { useGetUserUiPrivilegesQuery, useGetVersionQuery } from '@web/core/authApi';
import { selectIsAdmin, selectProfile } from '@web/core/authSlice';
import { CLIENT_VERSION } from '@web/core/config';
import { CURRENCIES } from '@shared/currencies';
import { useGetExchangeRatesQuery } from '@web/core/exchangeRateApi';
import { useAppDispatch, useAppSelector } from '@web/core/hooks';
import { LANGUAGE_NAMES, LOCALES } from '@web/core/locales';
import { currencyChosen, darkModeChosen, languageChosen, selectCurrency, selectDarkMode, selectLocale } from '@web/core/preferencesSlice';
import { PrivilegeSettingsItems } from './privilegeSettings';
import { ResellerLogoDialog } from '@web/ui/ResellerLogoDialog';
import { isRoutedPath } from './routePaths';
import { signOut } from '@web/core/session';
import { displayEmail, displayName } from '@web/core/userTypes';

/** A round badge with the first letter of the user's name. */
function Avatar({ name }: { name: string }) {
  return (
    <span className="portal-avatar" aria-hidden="true" data-testid="avatar">
      {Array.from(name.trim())[0]?.toLocaleUpperCase() ?? '?'}
    </span>
  );
}

/** A link of the user menu: disabled while its screen does not exist yet (public pages always exist). */
function LinkItem({ id, path, icon, public: isPublic = false }: { id: string; path: string; icon: ReactElement; public?: boolean }) {
  const intl = useIntl();
  const navigate = useNavigate();
  return (
    <MenuItem
      icon={icon}
      text={intl.formatMessage({ id: `topbar.${id}` })}
      disabled={!isPublic && !isRoutedPath(path)}
      onClick={() => navigate(path)}
      data-testid={`menu-${id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`}
    />
  );
}

/** The rate of the chosen currency against the base, with the day it was taken; nothing when unknown. */
function RateLine() {
  const intl = useIntl();
  const currency = useAppSelector(selectCurrency);
  const { data } = useGetExchangeRatesQuery();
  const rate = data?.rates.find((r) => r.currency === currency);
  if (!data || !rate || currency === data.base) return null;
  return (
    <li role="none" className={`portal-menu-note ${Classes.TEXT_MUTED} ${Classes.TEXT_SMALL}`} data-testid="exchange-rate">
      <FormattedMessage
        id="topbar.exchangeRate"
        values={{
          base: data.base,
          rate: intl.formatNumber(rate.rate, { maximumSignificantDigits: 6 }),
          currency,
          date: intl.formatDate(rate.asOf, { dateStyle: 'medium', timeZone: 'UTC' }),
        }}
      />
    </li>
  );
}

/**
 * Submenus open in the page's overlay layer rather than inside the menu, whose children may only be menu items
 * (an inline overlay would be a live region the menu role does not allow).
 */
const SUBMENU_POPOVER = { usePortal: true };

export function UserMenu() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const profile = useAppSelector(selectProfile);
  const isAdmin = useAppSelector(selectIsAdmin);
  const darkMode = useAppSelector(selectDarkMode);
  const locale = useAppSelector(selectLocale);
  const currency = useAppSelector(selectCurrency);
  const { data: granted = [] } = useGetUserUiPrivilegesQuery();
  const { data: server } = useGetVersionQuery();
  const [cookies, setCookies] = useState(cookieConsentGiven);
  const [changingPassword, setChangingPassword] = useState(false);
  const [changingLogo, setChangingLogo] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  if (!profile) return null;
  const name = displayName(profile);

  return (
    <>
      <PopoverNext
        placement="bottom-end"
        // A dialog opened from the menu keeps the focus; it hands it back to this button when it closes.
        shouldReturnFocusOnClose={false}
        content={
          <Menu aria-label={intl.formatMessage({ id: 'topbar.userMenu' })} className="portal-user-menu">
            <li role="none" className="portal-user-card">
              <Avatar name={name} />
              <span>
                <strong>{name}</strong>
                <br />
                <span className={Classes.TEXT_MUTED}>{displayEmail(profile)}</span>
              </span>
            </li>
            <MenuDivider />
            {isAdmin ? (
              <>
                <LinkItem id="accountSettings" path={`/services/${profile.resellerInfo.id}`} icon={<TagIcon />} />
                <LinkItem id="switchToAccount" path="/Account" icon={<SwapHorizontalIcon />} />
              </>
            ) : (
              <>
                <LinkItem id="services" path={`/services/${profile.resellerInfo.id}`} icon={<BankAccountIcon />} />
                {hasPrivilege(granted, 'PaymentMethods') && <LinkItem id="paymentMethods" path="/payment-methods" icon={<CreditCardIcon />} />}
                <PrivilegeSettingsItems granted={granted} />
              </>
            )}
            <MenuDivider title={intl.formatMessage({ id: 'topbar.preferences' })} />
            <li role="none" className="portal-menu-control">
              <Switch
                checked={darkMode}
                role="menuitemcheckbox"
                aria-checked={darkMode}
                label={intl.formatMessage({ id: 'topbar.darkMode' })}
                onChange={(e) => dispatch(darkModeChosen(e.currentTarget.checked))}
                data-testid="dark-mode-switch"
              />
            </li>
            <MenuItem
              icon={<TranslateIcon />}
              text={intl.formatMessage({ id: 'topbar.language' })}
              label={LANGUAGE_NAMES[locale]}
              data-testid="menu-language"
              popoverProps={SUBMENU_POPOVER}
            >
              {LOCALES.map((l) => (
                <MenuItem
                  key={l}
                  text={LANGUAGE_NAMES[l]}
                  lang={l}
                  icon={l === locale ? <TickIcon /> : undefined}
                  onClick={() => dispatch(languageChosen(l))}
                  data-testid={`menu-language-${l}`}
                />
              ))}
            </MenuItem>
            <MenuItem
              icon={<DollarIcon />}
              text={intl.formatMessage({ id: 'topbar.currency' })}
              label={currency}
              data-testid="menu-currency"
              popoverProps={SUBMENU_POPOVER}
            >
              {CURRENCIES.map((c) => (
                <MenuItem
                  key={c}
                  text={c}
                  label={intl.formatDisplayName(c, { type: 'currency', fallback: 'code' }) ?? c}
                  icon={c === currency ? <TickIcon /> : undefined}
                  onClick={() => dispatch(currencyChosen(c))}
                  data-testid={`menu-currency-${c}`}
                />
              ))}
            </MenuItem>
            <RateLine />
            <MenuDivider title={intl.formatMessage({ id: 'topbar.privacy' })} />
            <li role="none" className="portal-menu-control">
              <Switch
                checked={cookies}
                role="menuitemcheckbox"
                aria-checked={cookies}
                label={intl.formatMessage({ id: 'topbar.cookies' })}
                onChange={(e) => {
                  setCookieConsent(e.currentTarget.checked);
                  setCookies(e.currentTarget.checked);
                }}
                data-testid="cookies-switch"
              />
            </li>
            <LinkItem id="privacyPolicy" path="/privacy-policy" icon={<ShieldIcon />} public />
            <MenuDivider title={intl.formatMessage({ id: 'topbar.security' })} />
            <MenuItem
              icon={<KeyIcon />}
              text={intl.formatMessage({ id: 'topbar.changePassword' })}
              onClick={() => setChangingPassword(true)}
              data-testid="menu-change-password"
            />
            {hasPrivilege(granted, 'Resellers') && (
              <MenuItem
                icon={<MediaIcon />}
                text={intl.formatMessage({ id: 'topbar.resellerLogo' })}
                onClick={() => setChangingLogo(true)}
                data-testid="menu-reseller-logo"
              />
            )}
            <MenuDivider />
            <MenuItem
              icon={<LogOutIcon />}
              text={intl.formatMessage({ id: 'topbar.signOut' })}
              onClick={() => dispatch(signOut())}
              data-testid="menu-sign-out"
            />
            <li role="none" className={`portal-menu-note ${Classes.TEXT_MUTED} ${Classes.TEXT_SMALL}`} data-testid="versions">
              <FormattedMessage id="app.version" values={{ client: CLIENT_VERSION, server: server?.version ?? '…' }} />
            </li>
          </Menu>
        }
      >
        <Button
          ref={button}
          variant="minimal"
          endIcon={<CaretDownIcon />}
          title={displayEmail(profile)}
          data-testid="user-menu"
          aria-label={intl.formatMessage({ id: 'topbar.userMenu' })}
        >
          <span className="portal-user">
            <Avatar name={name} />
            <span className="portal-user-name" data-testid="user-name">
              {name}
            </span>
          </span>
        </Button>
      </PopoverNext>
      <ChangePasswordDialog isOpen={changingPassword} onClose={() => setChangingPassword(false)} onClosed={() => button.current?.focus()} />
      <ResellerLogoDialog isOpen={changingLogo} onClose={() => setChangingLogo(false)} onClosed={() => button.current?.focus()} />
    </>
  );
}
