import { BlueprintProvider } from '@blueprintjs/core';
import { useEffect, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { I18nProvider } from '@web/core/i18n';
import { ThemeSync } from '@web/core/theme';

/** The window title follows the language like every other text. */
function DocumentTitle() {
  const intl = useIntl();
  useEffect(() => {
    document.title = intl.formatMessage({ id: 'app.name' });
  }, [intl]);
  return null;
}

/** Everything between the store and the router: language, Blueprint's overlays and the theme. */
export function AppFrame({ children }: { children: ReactNode }) {
  return (
    <I18nProvider>
      <BlueprintProvider>
        <ThemeSync />
        <DocumentTitle />
        {children}
      </BlueprintProvider>
    </I18nProvider>
  );
}
