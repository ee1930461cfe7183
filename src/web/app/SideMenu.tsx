import { Classes } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { useStore } from 'react-redux';
import { NavLink } from 'react-router-dom';
import { useGetUserUiPrivilegesQuery, useGetVersionQuery } from '@web/core/authApi';
import { CLIENT_VERSION } from '@web/core/config';
import { visibleMenuEntries } from './menu';
import { ROUTED_PATHS } from './routePaths';
import type { RootState } from '@web/core/rootReducer';
import { preloadLink } from './preloadLink';

function itemClass({ isActive }: { isActive: boolean }): string {
  return isActive ? `${Classes.MENU_ITEM} ${Classes.ACTIVE}` : Classes.MENU_ITEM;
}

/** The side menu: nothing until privileges are loaded, then one entry per granted, routed screen. */
export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const intl = useIntl();
  const { data: granted } = useGetUserUiPrivilegesQuery();
  const { data: server } = useGetVersionQuery();
  const store = useStore<RootState>();
  if (!granted) return null;
  return (
    <nav className="portal-side-menu" aria-label={intl.formatMessage({ id: 'menu.label' })}>
      <ul className={Classes.MENU} data-testid="side-menu">
        {visibleMenuEntries(granted, ROUTED_PATHS).map((entry) => (
          <li key={entry.id}>
            {/* A pointer over an entry, or the focus on it, starts its screen's code (and a list's first page) on its way before the click. */}
            <NavLink
              to={entry.path}
              end={entry.path === '/'}
              className={itemClass}
              data-testid={`menu-${entry.id}`}
              onClick={onNavigate}
              onPointerEnter={() => preloadLink(store, entry.path)}
              onFocus={() => preloadLink(store, entry.path)}
            >
              <span className={Classes.MENU_ITEM_ICON}>
                <entry.icon />
              </span>
              <div className={`${Classes.FILL} ${Classes.TEXT_OVERFLOW_ELLIPSIS}`}>
                <FormattedMessage id={entry.messageId} />
              </div>
            </NavLink>
          </li>
        ))}
      </ul>
      <p className={`portal-version ${Classes.TEXT_MUTED} ${Classes.TEXT_SMALL}`}>
        <FormattedMessage id="app.version" values={{ client: CLIENT_VERSION, server: server?.version ?? '…' }} />
      </p>
    </nav>
  );
}
