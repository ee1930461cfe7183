/** Shapes of the user calls (GET /portal/user and friends), as the web app reads them. */
import type { FormStyles } from '@shared/formStyles';
import type { PrivilegeItem } from '@shared/privileges';

export interface ResellerInfo {
  id: number;
  name: string;
  accentColorHex: string | null;
  /** The form styles the user's screens take (its reseller's, else the nearest above it); null: the portal's look. */
  formStyles?: FormStyles | null;
}

export interface UserProfile {
  id: number;
  username: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  accountId: number | null;
  resellerInfo: ResellerInfo;
  /** JSON text: a list of `{ type, value }` items such as darkMode and lang. */
  preferences: string | null;
}

export interface PreferenceItem {
  type: string;
  value: string;
}

export interface UiPrivileges {
  userPrivileges: PrivilegeItem[];
}

export interface VersionInfo {
  name: string;
  version: string;
}

export interface ResellerListItem {
  id: number;
  name: string;
  parentId: number | null;
}

export interface LoginRequest {
  userName: string;
  password: string;
  /** Kept on the client: decides where the token is stored. */
  remember: boolean;
  /** The authenticator's code, in the second step of a two-factor sign-in. */
  code?: string;
}

export interface TokenResponse {
  jwt: string;
}

/** Sign-in answers with a token, or asks for a second step: a code, or enrolment first (QR code and key). */
export type SignInResponse = TokenResponse | { twoFactor: 'code' } | { twoFactor: 'enrol'; secret: string; otpauthUri: string };

/** The name the portal greets: first name, else the reseller's name. */
export function displayName(profile: UserProfile): string {
  return profile.firstName?.trim() || profile.resellerInfo.name;
}

/** The address the portal shows: e-mail, else the username. */
export function displayEmail(profile: UserProfile): string {
  return profile.email?.trim() || profile.username;
}
