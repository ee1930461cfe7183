import { CellTowerIcon, LightningIcon, LogOutIcon, MenuIcon } from '@blueprintjs/icons';
import { Alignment, Button, HTMLSelect, Navbar, NavbarDivider, NavbarGroup, NavbarHeading } from '@blueprintjs/core';
import { useCallback, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { AdminSettingsMenu, NotificationsMenu } from './adminMenus';
import { useGetUserUiPrivilegesQuery } from '@web/core/authApi';
import { selectIsAdmin, selectProfile } from '@web/core/authSlice';
import { useAppDispatch, useAppSelector } from '@web/core/hooks';
import { LANGUAGE_NAMES, LOCALES, isLocale } from '@web/core/locales';
import { useResellerLogoQuery } from '@web/core/logoApi';
import { languageChosen, selectLocale } from '@web/core/preferencesSlice';
import { CommandPalette, useCommandPaletteKey } from './search/CommandPalette';
import { SearchPopup } from './search/SearchPopup';
import { signOut } from '@web/core/session';
import { UserMenu } from './UserMenu';

/** The reseller's logo (or its nearest ancestor's); the default image when there is none or it fails to load. */
function PortalLogo() {
  const { data: url, isError } = useResellerLogoQuery();
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null);
  if (!url || isError || brokenUrl === url) return <CellTowerIcon size={20} data-testid="default-logo" />;
  return (
    <img
      src={url}
      alt=""
      height={28}
      style={{ height: 28, width: 'auto', maxWidth: 160, objectFit: 'contain' }}
      data-testid="reseller-logo"
      onError={() => setBrokenUrl(url)}
    />
  );
}

export function TopBar({ onToggleMenu }: { onToggleMenu: () => void }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const profile = useAppSelector(selectProfile);
  const isAdmin = useAppSelector(selectIsAdmin);
  const locale = useAppSelector(selectLocale);
  const { data: granted = [] } = useGetUserUiPrivilegesQuery();
  const searchPages = granted.find((p) => p.privilege === 'Search')?.subPrivileges ?? [];
  const [paletteOpen, setPaletteOpen] = useState(false);
  const openPalette = useCallback(() => setPaletteOpen(true), []);
  useCommandPaletteKey(openPalette);

  return (
    <Navbar className="portal-topbar">
      <NavbarGroup align={Alignment.START}>
        <Button variant="minimal" icon={<MenuIcon />} aria-label={intl.formatMessage({ id: 'menu.toggle' })} data-testid="menu-toggle" onClick={onToggleMenu} />
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
        <SearchPopup searchPages={searchPages} />
        {/* The assistant: the command palette, also on Ctrl+K for everyone. */}
        <Button
          variant="minimal"
          icon={<LightningIcon />}
          aria-label={intl.formatMessage({ id: 'palette.open' })}
          title={intl.formatMessage({ id: 'palette.shortcut' })}
          data-testid="palette-open"
          onClick={openPalette}
        />
        {isAdmin && profile && (
          <>
            <AdminSettingsMenu resellerId={profile.resellerInfo.id} />
            <NotificationsMenu />
          </>
        )}
        <HTMLSelect
          className="portal-hide-mobile"
          aria-label={intl.formatMessage({ id: 'topbar.language' })}
          data-testid="language-select"
          value={locale}
          onChange={(e) => isLocale(e.currentTarget.value) && dispatch(languageChosen(e.currentTarget.value))}
          options={LOCALES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
        />
        <NavbarDivider />
        <UserMenu />
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
      <CommandPalette isOpen={paletteOpen} onClose={() => setPaletteOpen(false)} />
    </Navbar>
  );
}
