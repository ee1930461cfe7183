/** Reading the server's one error shape out of RTK Query's error union. */
import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { isApiError, type ApiError } from '@shared/wire';

export type QueryError = FetchBaseQueryError | SerializedError | undefined;

export function httpStatus(error: QueryError): number | undefined {
  return error && 'status' in error && typeof error.status === 'number' ? error.status : undefined;
}

export function apiErrorOf(error: QueryError): ApiError | undefined {
  return error && 'data' in error && isApiError(error.data) ? error.data : undefined;
}
