import { CaretDownIcon, CellTowerIcon, KeyIcon, LogOutIcon, MediaIcon, MenuIcon, ShieldIcon, UserIcon } from '@blueprintjs/icons';
import {
  Alignment,
  Button,
  HTMLSelect,
  Menu,
  MenuItem,
  Navbar,
  NavbarDivider,
  NavbarGroup,
  NavbarHeading,
  PopoverNext,
  Switch,
} from '@blueprintjs/core';
import { useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useNavigate } from 'react-router-dom';
import { hasPrivilege } from '@shared/privileges';
import { ChangePasswordDialog } from '@web/features/account-security/ChangePasswordDialog';
import { usePrivilegesQuery } from './authApi';
import { useAppDispatch, useAppSelector } from './hooks';
import { selectProfile } from './authSlice';
import { LANGUAGE_NAMES, LOCALES, isLocale } from './locales';
import { useResellerLogoQuery } from './logoApi';
import { darkModeChosen, languageChosen, selectDarkMode, selectLocale } from './preferencesSlice';
import { ResellerLogoDialog } from './ResellerLogoDialog';
import { signOut } from './session';
import { displayEmail, displayName } from './userTypes';

/** The reseller's logo (or its nearest ancestor's); the default image when there is none or it fails to load. */
function PortalLogo() {
  const { data: url, isError } = useResellerLogoQuery();
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null);
  if (!url || isError || brokenUrl === url) return <CellTowerIcon size={20} data-testid="default-logo" />;
  return <img src={url} alt="" height={28} style={{ height: 28, width: 'auto', maxWidth: 160, objectFit: 'contain' }} data-testid="reseller-logo" onError={() => setBrokenUrl(url)} />;
}

export function TopBar({ onToggleMenu }: { onToggleMenu: () => void }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const profile = useAppSelector(selectProfile);
  const darkMode = useAppSelector(selectDarkMode);
  const locale = useAppSelector(selectLocale);
  const navigate = useNavigate();
  const [changingPassword, setChangingPassword] = useState(false);
  const [changingLogo, setChangingLogo] = useState(false);
  const { data: granted } = usePrivilegesQuery();
  const mayChangeLogo = Boolean(granted && hasPrivilege(granted, 'Resellers'));
  const userMenu = useRef<HTMLButtonElement>(null);

  return (
    <Navbar className="portal-topbar">
      <NavbarGroup align={Alignment.START}>
        <Button
          variant="minimal"
          icon={<MenuIcon />}
          aria-label={intl.formatMessage({ id: 'menu.toggle' })}
          data-testid="menu-toggle"
          onClick={onToggleMenu}
        />
        <NavbarHeading>
          <Link to="/" className="portal-logo" aria-label={intl.formatMessage({ id: 'topbar.logo' })}>
            <PortalLogo />
            <span className="portal-logo-text">
              <FormattedMessage id="app.name" />
            </span>
          </Link>
        </NavbarHeading>
      </NavbarGroup>
      <NavbarGroup align={Alignment.END} className="portal-topbar-actions">
        <Switch
          className="portal-dark-switch"
          checked={darkMode}
          label={intl.formatMessage({ id: 'topbar.darkMode' })}
          onChange={(e) => dispatch(darkModeChosen(e.currentTarget.checked))}
        />
        <HTMLSelect
          aria-label={intl.formatMessage({ id: 'topbar.language' })}
          data-testid="language-select"
          value={locale}
          onChange={(e) => isLocale(e.currentTarget.value) && dispatch(languageChosen(e.currentTarget.value))}
          options={LOCALES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
        />
        <NavbarDivider />
        {profile && (
          <PopoverNext
            placement="bottom-end"
            // The dialog opened from the menu keeps the focus; it hands it back to this button when it closes.
            shouldReturnFocusOnClose={false}
            content={
              <Menu aria-label={intl.formatMessage({ id: 'topbar.userMenu' })}>
                <MenuItem
                  icon={<KeyIcon />}
                  text={intl.formatMessage({ id: 'topbar.changePassword' })}
                  onClick={() => setChangingPassword(true)}
                  data-testid="menu-change-password"
                />
                {mayChangeLogo && (
                  <MenuItem
                    icon={<MediaIcon />}
                    text={intl.formatMessage({ id: 'topbar.resellerLogo' })}
                    onClick={() => setChangingLogo(true)}
                    data-testid="menu-reseller-logo"
                  />
                )}
                <MenuItem
                  icon={<ShieldIcon />}
                  text={intl.formatMessage({ id: 'topbar.privacyPolicy' })}
                  onClick={() => navigate('/privacy-policy')}
                  data-testid="menu-privacy-policy"
                />
              </Menu>
            }
          >
            <Button
              ref={userMenu}
              variant="minimal"
              endIcon={<CaretDownIcon />}
              title={displayEmail(profile)}
              data-testid="user-menu"
            >
              <span className="portal-user" data-testid="user-name">
                <UserIcon />
                <span className="portal-user-name">{displayName(profile)}</span>
              </span>
            </Button>
          </PopoverNext>
        )}
        <ChangePasswordDialog
          isOpen={changingPassword}
          onClose={() => setChangingPassword(false)}
          onClosed={() => userMenu.current?.focus()}
        />
        <ResellerLogoDialog isOpen={changingLogo} onClose={() => setChangingLogo(false)} onClosed={() => userMenu.current?.focus()} />
        <Button
          variant="minimal"
          icon={<LogOutIcon />}
          data-testid="sign-out"
          aria-label={intl.formatMessage({ id: 'topbar.signOut' })}
          onClick={() => dispatch(signOut())}
        >
          <span className="portal-hide-mobile">
            <FormattedMessage id="topbar.signOut" />
          </span>
        </Button>
      </NavbarGroup>
    </Navbar>
  );
}
