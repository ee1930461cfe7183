import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { HttpError, fieldError, invalid } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { hashPassword, verifyPassword } from './password';
import type { Tokens } from './tokens';
import type { TwoFactor } from './twoFactor';

const credentials = {
  type: 'object',
  required: ['userName', 'password'],
  properties: {
    userName: { type: 'string', minLength: 1, maxLength: 254 },
    password: { type: 'string', minLength: 1, maxLength: 256 },
    rememberMe: { type: 'boolean' },
    code: { type: 'string', maxLength: 10, description: 'The six-digit code of the authenticator, when the first answer asked for it' },
  },
};

/** A signed session's token. */
const tokenResponse = { type: 'object', required: ['jwt'], properties: { jwt: { type: 'string' } } };

/**
 * The answer of a sign-in: the token, or instead the second step it needs: `code` asks for the authenticator's
 * code, `enrol` for enrolling first (with the secret and its otpauth URI for the QR code).
 */
const signInResponse = {
  type: 'object',
  properties: {
    jwt: { type: 'string' },
    twoFactor: { type: 'string', enum: ['code', 'enrol'] },
    secret: { type: 'string' },
    otpauthUri: { type: 'string' },
  },
};

/** The signed-in user's privileges, as the role screen reads them. */
const privilegesResponse = {
  type: 'object',
  required: ['userPrivileges'],
  properties: {
    userPrivileges: {
      type: 'array',
      items: {
        type: 'object',
        required: ['privilege', 'subPrivileges'],
        properties: { privilege: { type: 'string' }, subPrivileges: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
};

/** The signed-in user, with the reseller's name and accent colour. */
const userResponse = {
  type: 'object',
  required: ['id', 'username', 'email', 'firstName', 'lastName', 'accountId', 'resellerInfo', 'preferences'],
  properties: {
    id: { type: 'integer' },
    username: { type: 'string' },
    email: { type: 'string', description: 'The e-mail, else the user name' },
    firstName: { type: 'string', description: "The first name, else the reseller's name" },
    lastName: { type: ['string', 'null'] },
    accountId: { type: ['integer', 'null'] },
    resellerInfo: {
      type: 'object',
      required: ['id', 'name', 'accentColorHex', 'formStyles'],
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        accentColorHex: { type: ['string', 'null'] },
        formStyles: {
          type: ['object', 'null'],
          description: "The form styles the user's screens take: its reseller's, else the nearest reseller's above it; null for none",
          properties: { primaryHex: { type: 'string' }, secondaryHex: { type: 'string' }, font: { type: 'string' }, radiusPx: { type: 'integer' } },
        },
      },
    },
    preferences: { type: 'string', description: 'JSON text: a list of `{ type, value }` items' },
  },
};

/** Compared against when the user does not exist, so a wrong name costs as long as a wrong password. */
const decoyHash = hashPassword('decoy-password');

export function registerAuthRoutes(app: FastifyInstance, db: Kysely<Database>, tokens: Tokens, twoFactor: TwoFactor) {
  /** The user a sign-in name stands for: its user name or its e-mail, ignoring case; a user name match first. */
  const userNamed = (name: string) =>
    db
      .selectFrom('appUser')
      .select(['id', 'passwordHash', 'disabled', 'sessionVersion'])
      .where((eb) => eb.or([eb(sql`lower(username)`, '=', name), eb(sql`lower(email)`, '=', name)]))
      .orderBy(sql`lower(username) = ${name}`, 'desc')
      .orderBy('id')
      .executeTakeFirst();

  // Both spellings of an account (user name, e-mail) share its attempt counter; past the per-address limit the answer
  // is slowed down rather than refused, so a correct password from a busy shared address still signs in.
  const attempts = {
    group: 'signIn',
    nameField: 'userName',
    failuresOnly: true,
    slowAddress: true,
    accountOf: async (name: string) => (await userNamed(name))?.id.toString(),
  };

  app.post(
    '/portal/auth',
    {
      config: { public: true, attempts },
      schema: {
        tags: ['auth'],
        summary: 'Signs in with a user name and password (and a two-factor code when required)',
        body: credentials,
        response: { 200: signInResponse },
      },
    },
    async (request) => {
      const { userName, password, code } = request.body as { userName: string; password: string; code?: string };
      const user = await userNamed(userName.trim().toLowerCase());
      const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyHash));
      if (!user || !ok) throw new HttpError(401, 'BAD_CREDENTIALS', 'login.error');
      // Said only to whoever knows the password; before the second step, so a disabled user is not asked to enrol.
      if (user.disabled) throw new HttpError(401, 'USER_DISABLED', 'login.disabled');
      // The second step, when there is one, answers instead of a token: asking for a code is not a failure.
      const secondStep = await twoFactor.signIn(user.id, code?.trim() || undefined);
      if (secondStep) return secondStep;
      // The reseller's last login and address, shown on its page.
      await sql`update reseller_standing set last_login_at = now(), last_login_ip = ${request.ip}
        where reseller_id = (select reseller_id from app_user where id = ${user.id})`.execute(db);
      return { jwt: await tokens.issue({ userId: user.id, sessionVersion: user.sessionVersion }) };
    },
  );

  // The guard has refused a token of an earlier session version, so a revoked session cannot renew itself.
  app.get(
    '/portal/auth/renew',
    { config: { signedIn: true }, schema: { tags: ['auth'], summary: 'A new token for the signed-in session', response: { 200: tokenResponse } } },
    async (request) => {
      const { userId, sessionVersion } = principalOf(request);
      return { jwt: await tokens.issue({ userId, sessionVersion }) };
    },
  );

  app.get(
    '/portal/user',
    { config: { signedIn: true }, schema: { tags: ['user'], summary: 'The signed-in user', response: { 200: userResponse } } },
    async (request) => {
      const p = principalOf(request);
      const u = await db
        .selectFrom('appUser as u')
        .innerJoin('reseller as r', 'r.id', 'u.resellerId')
        .select([
          'u.id',
          'u.username',
          'u.email',
          'u.firstName',
          'u.lastName',
          'u.accountId',
          'u.preferences',
          'r.id as resellerId',
          'r.name as resellerName',
          'r.accentColorHex',
          sql<unknown>`(select s.form_styles from reseller s where starts_with(r.path, s.path) and s.form_styles is not null
            order by length(s.path) desc limit 1)`.as('formStyles'),
        ])
        .where('u.id', '=', p.userId)
        .executeTakeFirstOrThrow();
      return {
        id: u.id,
        username: u.username,
        email: u.email ?? u.username,
        firstName: u.firstName ?? u.resellerName,
        lastName: u.lastName,
        accountId: u.accountId,
        resellerInfo: {
          id: u.resellerId,
          name: u.resellerName,
          accentColorHex: u.accentColorHex,
          formStyles: typeof u.formStyles === 'string' ? JSON.parse(u.formStyles) : (u.formStyles ?? null),
        },
        preferences: u.preferences ?? '[]',
      };
    },
  );

  app.post(
    '/portal/user/preferences',
    {
      config: { signedIn: true },
      schema: {
        tags: ['user'],
        summary: "Saves the signed-in user's preferences",
        body: { type: 'object', required: ['preferences'], properties: { preferences: { type: 'string', maxLength: 10000 } } },
      },
    },
    async (request, reply) => {
      const { preferences } = request.body as { preferences: string };
      try {
        if (!Array.isArray(JSON.parse(preferences))) throw new Error('not a list');
      } catch {
        throw invalid([fieldError('preferences', 'format', 'validation.invalid')]);
      }
      await db.updateTable('appUser').set({ preferences }).where('id', '=', principalOf(request).userId).execute();
      return reply.status(204).send();
    },
  );

  const privileges = async (request: Parameters<typeof principalOf>[0]) => ({ userPrivileges: principalOf(request).privileges });
  app.get(
    '/portal/user/ui-privileges',
    { config: { signedIn: true }, schema: { tags: ['user'], summary: "The signed-in user's privileges", response: { 200: privilegesResponse } } },
    privileges,
  );
  app.get(
    '/portal/roles/privileges',
    {
      config: { signedIn: true },
      schema: { tags: ['roles'], summary: "The signed-in user's privileges (for the role screen)", response: { 200: privilegesResponse } },
    },
    privileges,
  );
}
