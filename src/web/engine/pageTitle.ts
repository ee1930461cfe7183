/** What names a row on its screen, and the window title that follows the screen. */
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import type { EntityRow } from '@web/core/types';

/** Fields that name a row, in the order tried. */
const NAME_FIELDS = ['name', 'label', 'username', 'email', 'iccid', 'imsi', 'msisdn'];

/** The row's name: its first non-empty naming field, or undefined when it has none (or is not loaded yet). */
export function rowName(row: EntityRow | undefined): string | undefined {
  const name = row && NAME_FIELDS.map((f) => row[f]).find((v) => typeof v === 'string' && v.trim());
  return typeof name === 'string' ? name : undefined;
}

/**
 * Titles the window with this screen's name ahead of the portal's ("Beacon Fleet · Connectivity Portal"), so tabs
 * and history tell screens apart; leaving the screen gives the window back the portal's name.
 */
export function usePageTitle(page: string | undefined) {
  const intl = useIntl();
  useEffect(() => {
    if (!page) return;
    const app = intl.formatMessage({ id: 'app.name' });
    document.title = intl.formatMessage({ id: 'app.pageTitle' }, { page, app });
    return () => {
      document.title = app;
    };
  }, [intl, page]);
}
