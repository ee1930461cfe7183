import { CaretDownIcon, CellTowerIcon, KeyIcon, LogOutIcon, MenuIcon, ShieldIcon, UserIcon } from '@blueprintjs/icons';
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
import { ChangePasswordDialog } from '@web/features/account-security/ChangePasswordDialog';
import { useAppDispatch, useAppSelector } from './hooks';
import { selectProfile } from './authSlice';
import { LANGUAGE_NAMES, LOCALES, isLocale } from './locales';
import { darkModeChosen, languageChosen, selectDarkMode, selectLocale } from './preferencesSlice';
import { signOut } from './session';
import { displayEmail, displayName } from './userTypes';

export function TopBar({ onToggleMenu }: { onToggleMenu: () => void }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const profile = useAppSelector(selectProfile);
  const darkMode = useAppSelector(selectDarkMode);
  const locale = useAppSelector(selectLocale);
  const navigate = useNavigate();
  const [changingPassword, setChangingPassword] = useState(false);
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
            <CellTowerIcon size={20} />
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
