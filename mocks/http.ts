/** Answers in the server's one error shape, with English text from the source catalogue. */
import { HttpResponse } from 'msw';
import type { ApiError, FieldError } from '@shared/wire';
import en from '../i18n/en.json';

const catalogue: Record<string, string> = en;

export function messageText(messageId: string): string {
  return catalogue[messageId] ?? messageId;
}

export function fieldError(field: string, rule: string, messageId: string): FieldError {
  return { field, rule, messageId, message: messageText(messageId) };
}

export function errorResponse(statusCode: number, code: string, message: string, fields?: FieldError[]) {
  const body: ApiError = { statusCode, code, message, ...(fields ? { fields } : {}) };
  return HttpResponse.json(body, { status: statusCode });
}

export const unauthorizedResponse = () => errorResponse(401, 'UNAUTHORIZED', 'A valid token is required');
export const forbiddenResponse = () => errorResponse(403, 'FORBIDDEN', 'You lack the privilege for this action');
export const notFoundResponse = () => errorResponse(404, 'NOT_FOUND', 'Not found');
