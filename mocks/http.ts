/** Answers in the server's one error shape, with English text from the source catalogue. */
import { HttpResponse } from 'msw';
import type { FieldError } from '@shared/wire';
import en from '../i18n/en.json';
import type { components } from './openapi.gen';

const catalogue: Record<string, string> = en;

export function messageText(messageId: string): string {
  return catalogue[messageId] ?? messageId;
}

export function fieldError(field: string, rule: string, messageId: string): FieldError {
  return { field, rule, messageId, message: messageText(messageId) };
}

/** The document's error shape, so an error answer fits every operation's 4XX response. */
type ApiError = components['schemas']['ApiError'];

export function errorResponse(statusCode: number, code: string, message: string, fields?: FieldError[]) {
  const body: ApiError = { statusCode, code, message, ...(fields ? { fields } : {}) };
  return HttpResponse.json<ApiError>(body, { status: statusCode });
}

export const unauthorizedResponse = () => errorResponse(401, 'UNAUTHORIZED', 'A valid token is required');
export const forbiddenResponse = () => errorResponse(403, 'FORBIDDEN', 'You lack the privilege for this action');
export const notFoundResponse = () => errorResponse(404, 'NOT_FOUND', 'Not found');
