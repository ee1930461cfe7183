/**
 * Actions shared by the API layer and the auth slice. They live apart so the base query can raise them
 * without importing the slice, which itself imports the API.
 */
import { createAction } from '@reduxjs/toolkit';

/** A call answered 401 while a token was stored: the session is over. */
export const unauthorized = createAction('auth/unauthorized');
/** The token and profile are gone; listeners clear storage and stop the renewal timer. */
export const signedOut = createAction('auth/signedOut');
/** The store started with a stored token: the renewal timer must be armed. */
export const sessionRestored = createAction('auth/sessionRestored');
/** The server handed this session a new token in place of its current one (after the user's own password change). */
export const tokenReplaced = createAction<string>('auth/tokenReplaced');
