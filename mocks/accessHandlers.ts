/**
 * The public access calls and the password change, answering like the server: the robot check (a payload is
 * checked once, then spent by one join request), join requests validated with the shared schema, reset links
 * with the same answer for known and unknown addresses, and the shared password rule.
 * Robot-check payloads have no proof of work here: any text passes, except one starting with `refused`.
 */
import { HttpResponse } from 'msw';
import { normaliseJoinRequest, type JoinRequestBody } from '@shared/join';
import { compileJoinCheck } from '@shared/joinCheck';
import { passwordProblem } from '@shared/password';
import { toFieldErrors } from '@shared/validation';
import type { FieldError } from '@shared/wire';
import type { MockDatabase } from './data';
import { errorResponse, fieldError, messageText, unauthorizedResponse } from './http';
import { callerOf } from './session';
import { mockToken } from './token';
import { openApiHttp } from './openapiHttp';

export interface MockAccessState {
  /** Robot-check payloads by state: checked once (may be used by a join request), or spent. */
  robot: Map<string, 'checked' | 'spent'>;
  joinRequests: (Omit<JoinRequestBody, 'altcha'> & { id: number })[];
  /** Open reset links: token → user id. */
  resetTokens: Map<string, number>;
  /** Every address a reset link was asked for, known or not. */
  resetRequests: string[];
}

const states = new WeakMap<MockDatabase, MockAccessState>();

/** The access state that goes with a mock database; tests read and seed it. */
export function accessStateOf(db: MockDatabase): MockAccessState {
  let state = states.get(db);
  if (!state) {
    state = { robot: new Map(), joinRequests: [], resetTokens: new Map(), resetRequests: [] };
    states.set(db, state);
  }
  return state;
}

let joinCheck: ReturnType<typeof compileJoinCheck> | undefined;

const invalid = (fields: FieldError[]) => errorResponse(400, 'VALIDATION_FAILED', messageText('error.validation'), fields);

function newPasswordErrors(value: unknown): FieldError[] {
  const problem = passwordProblem(value);
  return problem ? [fieldError('newPassword', problem.endsWith('required') ? 'required' : 'pattern', problem)] : [];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await request.json();
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function accessHandlers(db: MockDatabase, base: string) {
  const http = openApiHttp(base);
  const state = accessStateOf(db);
  return [
    http.get('/join/challenge', () =>
      HttpResponse.json({
        parameters: { algorithm: 'PBKDF2/SHA-256', nonce: 'mock', salt: 'mock', cost: 1, keyLength: 32, keyPrefix: '00' },
        signature: 'mock',
      }),
    ),

    http.post('/join/recaptcha', async ({ request }) => {
      const token = (await jsonBody(request)).token;
      if (typeof token !== 'string' || !token || token.startsWith('refused') || state.robot.has(token)) return HttpResponse.json(false);
      state.robot.set(token, 'checked');
      return HttpResponse.json(true);
    }),

    http.post('/join/request', async ({ request }) => {
      const body = normaliseJoinRequest(await jsonBody(request)) as Record<string, unknown>;
      joinCheck ??= compileJoinCheck();
      const errors = joinCheck(body) ? [] : toFieldErrors(joinCheck.errors as never, messageText);
      const altcha = body.altcha as string;
      // As on the server, only an otherwise valid request spends the solution.
      if (!errors.length && (state.robot.get(altcha) === 'spent' || altcha.startsWith('refused'))) {
        errors.push(fieldError('altcha', 'valid', 'validation.altcha.invalid'));
      }
      if (errors.length) return invalid(errors);
      state.robot.set(altcha, 'spent');
      const { altcha: _spent, ...join } = body as unknown as JoinRequestBody;
      const id = state.joinRequests.length + 1;
      state.joinRequests.push({ ...join, id });
      return HttpResponse.json({ id }, { status: 201 });
    }),

    http.put('/user/password/reset', async ({ request }) => {
      const body = await jsonBody(request);
      if ('token' in body || 'newPassword' in body) {
        const errors = newPasswordErrors(body.newPassword);
        if (errors.length) return invalid(errors);
        const userId = typeof body.token === 'string' ? state.resetTokens.get(body.token) : undefined;
        const user = db.users.find((u) => u.id === userId);
        if (!user) {
          return errorResponse(400, 'RESET_TOKEN_INVALID', messageText('reset.tokenInvalid'), [fieldError('token', 'valid', 'reset.tokenInvalid')]);
        }
        user.password = body.newPassword as string;
        user.sessionVersion = (user.sessionVersion ?? 0) + 1;
        for (const [token, id] of state.resetTokens) if (id === user.id) state.resetTokens.delete(token);
        return HttpResponse.json({ message: messageText('reset.done') });
      }
      const email = typeof body.email === 'string' ? body.email.trim() : '';
      if (!email) return invalid([fieldError('email', 'required', 'validation.email.required')]);
      if (!EMAIL.test(email)) return invalid([fieldError('email', 'format', 'validation.email.invalid')]);
      state.resetRequests.push(email);
      const user = db.users.find((u) => u.email?.toLowerCase() === email.toLowerCase());
      if (user) state.resetTokens.set(`reset-${user.id}-${state.resetTokens.size + 1}`, user.id);
      return HttpResponse.json({ message: messageText('reset.requested') });
    }),

    http.put('/user/password', async ({ request }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      const body = await jsonBody(request);
      const current = typeof body.currentPassword === 'string' ? body.currentPassword : '';
      const errors = [...(current ? [] : [fieldError('currentPassword', 'required', 'validation.password.required')]), ...newPasswordErrors(body.newPassword)];
      if (errors.length) return invalid(errors);
      if (current !== user.password) return invalid([fieldError('currentPassword', 'current', 'validation.password.current')]);
      user.password = body.newPassword as string;
      // Every other session ends; this one goes on with the new token.
      user.sessionVersion = (user.sessionVersion ?? 0) + 1;
      return HttpResponse.json({ message: messageText('password.changed'), jwt: mockToken(user.username, 3600, Date.now(), user.sessionVersion) });
    }),
  ];
}
