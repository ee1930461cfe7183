/**
 * The one central API. It declares no endpoints: the auth calls and each entity inject theirs, so a domain
 * adds its calls in its own file while cache tags stay shared and invalidation works across domains.
 */
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import type { BaseQueryFn, FetchArgs, FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { ENTITY_SCHEMAS, entityTag } from './schemas';
import { API_BASE, API_TIMEOUT_MS } from './config';
import { tokenFromState } from './authState';
import { unauthorized } from './authActions';

export function deviceTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: API_BASE,
  timeout: API_TIMEOUT_MS,
  prepareHeaders: (headers, { getState }) => {
    const token = tokenFromState(getState());
    if (token) headers.set('Authorization', `Bearer ${token}`);
    headers.set('X-Time-Zone', deviceTimeZone());
    return headers;
  },
});

export type AppBaseQuery = BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError>;

/**
 * A 401 while a token is stored means the session ended on the server (expired, revoked, user removed):
 * the app signs out. Without a token a 401 is an ordinary answer, e.g. wrong credentials at sign-in. A call sent
 * with a token that was replaced while it was on its way (the user's own password change ends the old one) is
 * sent once more with the new token: the guard refused it before anything ran.
 */
export const baseQuery: AppBaseQuery = async (args, queryApi, extraOptions) => {
  const sentWith = tokenFromState(queryApi.getState());
  let result = await rawBaseQuery(args, queryApi, extraOptions);
  const current = tokenFromState(queryApi.getState());
  if (result.error?.status === 401 && sentWith !== null && current !== null && current !== sentWith) result = await rawBaseQuery(args, queryApi, extraOptions);
  if (result.error?.status === 401 && sentWith !== null) queryApi.dispatch(unauthorized());
  // A feature switched off since the labs were read: reading them again hides it (see labsApi.ts).
  if (result.error?.status === 403 && (result.error.data as { code?: unknown } | undefined)?.code === 'LAB_OFF')
    queryApi.dispatch(api.util.invalidateTags([LABS_TAG]));
  return result;
};

/** Tags of the portal's own calls; entity tags come from the schemas. */
export const SESSION_TAGS = ['Profile', 'Privileges', 'ResellerList'] as const;

/** The tag of the tenant's labs (the generated endpoints' own, from the document's tag). */
const LABS_TAG = 'labs';

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: [...SESSION_TAGS, LABS_TAG, ...ENTITY_SCHEMAS.map(entityTag)],
  endpoints: () => ({}),
});

export type AppApi = typeof api;
