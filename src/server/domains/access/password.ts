import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql, type ExpressionBuilder } from 'kysely';
import { passwordProblem } from '@shared/password';
import type { FieldError } from '@shared/wire';
import { englishText, fieldError, HttpError, invalid } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { hashPassword, verifyPassword } from '../auth/password';
import { objectBody } from '../../http/input';
import { isEmail, type AccessContext, type AccessDb } from './context';

const TOKEN_MINUTES = 60;

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

function newPasswordErrors(field: string, value: unknown): FieldError[] {
  const problem = passwordProblem(value);
  return problem ? [fieldError(field, problem.endsWith('required') ? 'required' : 'pattern', problem)] : [];
}

/** Either `{ email }` or `{ newPassword, token }`; what each lacks or breaks is answered by the handler's own rules. */
const resetBody = {
  ...objectBody({ email: { type: 'string', maxLength: 254 }, newPassword: { type: 'string', maxLength: 1000 }, token: { type: 'string', maxLength: 4000 } }),
  description: 'Either { email } to ask for a reset link, or { newPassword, token } to set the new password.',
};

export function registerPasswordRoutes(app: FastifyInstance, ctx: AccessContext) {
  const { db, mailer, publicUrl } = ctx;

  /** Runs after the answer is sent, so a known and an unknown address take the same time to answer. */
  async function sendResetLink(email: string) {
    // A disabled user could not sign in with a new password: no link for it.
    const user = await db
      .selectFrom('appUser')
      .select(['id', 'email'])
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .where('disabled', '=', false)
      .executeTakeFirst();
    if (!user?.email) return;
    const token = randomBytes(32).toString('base64url');
    await db
      .insertInto('passwordReset')
      .values({ userId: user.id, tokenHash: sha256(token), expiresAt: sql<Date>`now() + make_interval(mins => ${TOKEN_MINUTES})` })
      .execute();
    const link = `${publicUrl}/#/login?password_reset=${token}`;
    await mailer.send({
      to: user.email,
      secrets: [token],
      subject: 'Reset your portal password',
      text: `Someone, hopefully you, asked to reset the password of your portal account.\n\nOpen this link within ${TOKEN_MINUTES} minutes to choose a new password:\n${link}\n\nIf you did not ask for it, ignore this message: your password stays as it is.`,
    });
  }

  async function setNewPassword(body: Record<string, unknown>) {
    const errors = newPasswordErrors('newPassword', body.newPassword);
    if (errors.length) throw invalid(errors);
    const tokenInvalid = () => new HttpError(400, 'RESET_TOKEN_INVALID', 'reset.tokenInvalid', [fieldError('token', 'valid', 'reset.tokenInvalid')]);
    if (typeof body.token !== 'string' || !body.token || body.token.length > 200) throw tokenInvalid();
    const tokenHash = sha256(body.token);
    const open = (eb: ExpressionBuilder<AccessDb, 'passwordReset'>) =>
      eb.and([eb('tokenHash', '=', tokenHash), eb('usedAt', 'is', null), eb('expiresAt', '>', sql<Date>`now()`)]);
    // Look first, hash afterwards: a wrong token costs no scrypt work.
    if (!(await db.selectFrom('passwordReset').select('id').where(open).executeTakeFirst())) throw tokenInvalid();
    const passwordHash = await hashPassword(body.newPassword as string);
    const changed = await db.transaction().execute(async (trx) => {
      // Claiming the token is one conditional update, so two submissions of one link cannot both succeed.
      const claimed = await trx
        .updateTable('passwordReset')
        .set({ usedAt: sql<Date>`now()` })
        .where(open)
        .returning('userId')
        .executeTakeFirst();
      if (!claimed) return false;
      // The database raises the user's session version with the password: every session signed in before ends.
      await trx.updateTable('appUser').set({ passwordHash }).where('id', '=', claimed.userId).execute();
      await trx
        .updateTable('passwordReset')
        .set({ usedAt: sql<Date>`now()` })
        .where('userId', '=', claimed.userId)
        .where('usedAt', 'is', null)
        .execute();
      return true;
    });
    if (!changed) throw tokenInvalid();
  }

  const reset = async (request: { body: unknown }) => {
    const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
    if ('token' in body || 'newPassword' in body) {
      await setNewPassword(body);
      return { message: englishText('reset.done') };
    }
    const email = typeof body.email === 'string' ? body.email.trim() : '';
    if (!email) throw invalid([fieldError('email', 'required', 'validation.email.required')]);
    if (!isEmail(email)) throw invalid([fieldError('email', 'format', 'validation.email.invalid')]);
    ctx.later(() => sendResetLink(email));
    return { message: englishText('reset.requested') };
  };
  const resetRoute = {
    config: { public: true, attempts: { group: 'reset', nameField: 'email' } },
    schema: {
      tags: ['user'],
      summary: 'Ask for a password reset link, or set a new password with its token',
      body: resetBody,
      response: { 200: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } },
    },
  };
  app.put('/portal/user/password/reset', resetRoute, reset);
  app.post('/portal/user/password/reset', resetRoute, reset);

  app.put(
    '/portal/user/password',
    {
      config: { signedIn: true, attempts: { group: 'password', failuresOnly: true } },
      schema: {
        tags: ['user'],
        summary: "Change the signed-in user's password",
        body: objectBody({ currentPassword: { type: 'string', maxLength: 1000 }, newPassword: { type: 'string', maxLength: 1000 } }),
        response: {
          200: {
            type: 'object',
            required: ['message', 'jwt'],
            properties: { message: { type: 'string' }, jwt: { type: 'string', description: "This session's token of the new session version" } },
          },
        },
      },
    },
    async (request) => {
      const { userId } = principalOf(request);
      const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
      const current = typeof body.currentPassword === 'string' ? body.currentPassword : '';
      const errors = [
        ...(current ? [] : [fieldError('currentPassword', 'required', 'validation.password.required')]),
        ...newPasswordErrors('newPassword', body.newPassword),
      ];
      if (errors.length) throw invalid(errors);
      const user = await db.selectFrom('appUser').select('passwordHash').where('id', '=', userId).executeTakeFirstOrThrow();
      if (current.length > 256 || !(await verifyPassword(current, user.passwordHash)))
        throw invalid([fieldError('currentPassword', 'current', 'validation.password.current')]);
      const passwordHash = await hashPassword(body.newPassword as string);
      const sessionVersion = await db.transaction().execute(async (trx) => {
        // The database raises the session version with the password (migration 0121): every token issued so far ends.
        const changed = await trx.updateTable('appUser').set({ passwordHash }).where('id', '=', userId).returning('sessionVersion').executeTakeFirstOrThrow();
        // Reset links mailed before the change no longer apply.
        await trx
          .updateTable('passwordReset')
          .set({ usedAt: sql<Date>`now()` })
          .where('userId', '=', userId)
          .where('usedAt', 'is', null)
          .execute();
        return changed.sessionVersion;
      });
      // The session that changed the password goes on with a token of the new version; every other one has ended.
      return { message: englishText('password.changed'), jwt: await app.tokens.issue({ userId, sessionVersion }) };
    },
  );
}
