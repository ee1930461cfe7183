import { CellTowerIcon, LogOutIcon, MenuIcon, UserIcon } from '@blueprintjs/icons';
import { Alignment, Button, HTMLSelect, Navbar, NavbarDivider, NavbarGroup, NavbarHeading, Switch } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
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
          <span className="portal-user" data-testid="user-name" title={displayEmail(profile)}>
            <UserIcon />
            <span className="portal-user-name">{displayName(profile)}</span>
          </span>
        )}
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
