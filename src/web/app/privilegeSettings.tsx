/**
 * Settings screens a user who is not the administrator reaches through a privilege of its role, from the user menu
 * (the administrator has them all in the settings menu of the top bar): a reseller manages its own tenant's custom
 * fields and labs. Each shows only to a user granted its privilege, once its screen exists.
 */
import { LabTestIcon, PropertiesIcon } from '@blueprintjs/icons';
import { MenuItem } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { hasPrivilege, type PrivilegeItem } from '@shared/privileges';
import type { SettingsLink } from './adminMenus';
import { useCaller } from '@web/core/useCaller';
import { isRoutedPath } from './routePaths';

export interface PrivilegeSettingsLink extends SettingsLink {
  privilege: string;
}

export const PRIVILEGE_SETTINGS_LINKS: readonly PrivilegeSettingsLink[] = [
  { id: 'labs', icon: LabTestIcon, path: '/labs', privilege: 'Labs' },
  { id: 'customFields', icon: PropertiesIcon, path: '/custom-fields', privilege: 'CustomFields' },
];

/** The settings links a user's privileges open. */
export function privilegeSettingsLinks(granted: PrivilegeItem[]): PrivilegeSettingsLink[] {
  return PRIVILEGE_SETTINGS_LINKS.filter((link) => hasPrivilege(granted, link.privilege) && isRoutedPath(link.path));
}

/** The user menu's entries for those links, named like the administrator's settings menu. */
export function PrivilegeSettingsItems({ granted }: { granted: PrivilegeItem[] }) {
  const intl = useIntl();
  const navigate = useNavigate();
  // A tenant's settings are its reseller's: the server refuses them to an account's user whatever its role holds.
  if (useCaller()?.accountId != null) return null;
  return privilegeSettingsLinks(granted).map((link) => (
    <MenuItem
      key={link.id}
      icon={<link.icon />}
      text={intl.formatMessage({ id: `topbar.settings.${link.id}` })}
      onClick={() => navigate(link.path)}
      data-testid={`menu-settings-${link.id}`}
    />
  ));
}
