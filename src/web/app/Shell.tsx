import { ErrorIcon } from '@blueprintjs/icons';
import { Drawer, NonIdealState } from '@blueprintjs/core';
import { Suspense, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Outlet, useLocation } from 'react-router-dom';
import { useProfileQuery } from '@web/core/authApi';
import { MOBILE_BREAKPOINT_PX } from '@web/core/config';
import { ErrorBoundary } from '@web/ui/ErrorBoundary';
import { Loading } from '@web/ui/Loading';
import { isRightToLeft, isLocale } from '@web/core/locales';
import { SideMenu } from './SideMenu';
import { TopBar } from './TopBar';
import { useMediaQuery } from '@web/core/useMediaQuery';

/** The signed-in frame: top bar, side menu (a drawer on narrow screens) and the current page. */
export function Shell() {
  const intl = useIntl();
  const mobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`);
  const [menuOpen, setMenuOpen] = useState(true);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const profile = useProfileQuery();
  const rtl = isLocale(intl.locale) && isRightToLeft(intl.locale);
  const { pathname } = useLocation();

  return (
    <div className="portal-shell">
      <TopBar onToggleMenu={() => (mobile ? setDrawerOpen((o) => !o) : setMenuOpen((o) => !o))} />
      <div className="portal-body">
        {!mobile && menuOpen && (
          <aside className="portal-side">
            <SideMenu />
          </aside>
        )}
        {mobile && (
          <Drawer
            isOpen={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            position={rtl ? 'right' : 'left'}
            size="280px"
            title={intl.formatMessage({ id: 'app.name' })}
          >
            <SideMenu onNavigate={() => setDrawerOpen(false)} />
          </Drawer>
        )}
        <main className="portal-main">
          {profile.isError ? (
            <NonIdealState icon={<ErrorIcon size={48} />} title={<FormattedMessage id="app.error.generic" />} />
          ) : (
            <ErrorBoundary resetKey={pathname}>
              <Suspense fallback={<Loading />}>
                <Outlet />
              </Suspense>
            </ErrorBoundary>
          )}
        </main>
      </div>
    </div>
  );
}
