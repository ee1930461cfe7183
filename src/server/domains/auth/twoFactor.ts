import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { generateSecret, generateURI, verify } from 'otplib';
import { pageAnswer } from '@shared/wire';
import type { Database } from '../../db/types';
import { fieldError, HttpError, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { INT_MAX, INT_MIN, pageQuery } from '../../http/input';
import { serverKey } from './secrets';

/** What sign-in answers instead of a token when a second step is needed. */
export type SecondStep = { twoFactor: 'code' } | { twoFactor: 'enrol'; secret: string; otpauthUri: string };

export interface TwoFactor {
  /**
   * After a correct password: undefined when the user may have a session now; the second step otherwise.
   * A wrong code throws (401), and is counted by the sign-in limits like a wrong password.
   */
  signIn(userId: number, code: string | undefined): Promise<SecondStep | undefined>;
}

const codeInvalid = () => new HttpError(401, 'TWO_FACTOR_INVALID', 'twoFactor.codeInvalid');

/**
 * TOTP (RFC 6238, otplib) as a second sign-in factor. Secrets are kept encrypted with AES-256-GCM under a key
 * from TWO_FACTOR_KEY or the database, and never leave the server after enrolment. Each code is accepted once.
 */
export async function createTwoFactor(db: Kysely<Database>, configuredKey?: string) {
  const key = createHash('sha256')
    .update(await serverKey(db, 'two_factor_key', configuredKey))
    .digest();

  const seal = (secret: string) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  };
  const open = (sealed: string) => {
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  };

  /** The user's state, with whether their reseller or one above it requires a second factor. */
  const stateOf = (userId: number) =>
    db
      .selectFrom('appUser as u')
      .innerJoin('reseller as r', 'r.id', 'u.resellerId')
      .select(['u.username', 'u.totpSecret', 'u.totpPendingSecret', 'u.totpLastStep', 'r.name as resellerName'])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('reseller as a')
              .select('a.id')
              .where('a.requireTwoFactor', '=', true)
              .where(sql<boolean>`r.path like a.path || '%'`),
          )
          .as('required'),
      )
      .where('u.id', '=', userId)
      .executeTakeFirstOrThrow();
  type State = Awaited<ReturnType<typeof stateOf>>;

  /** The time step of a valid, not yet used code; undefined otherwise. A code is accepted 30 s either side. */
  async function check(sealed: string, lastStep: number | null, code: unknown): Promise<number | undefined> {
    if (typeof code !== 'string' || !/^\d{6}$/.test(code.trim())) return undefined;
    const result = await verify({ secret: open(sealed), token: code.trim(), epochTolerance: 30, ...(lastStep === null ? {} : { afterTimeStep: lastStep }) });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  }

  /** The enrolment in progress, or a new one: the secret and the otpauth:// address its QR code carries. */
  async function pendingEnrolment(userId: number, state: State) {
    let sealed = state.totpPendingSecret;
    if (!sealed) {
      sealed = seal(generateSecret());
      await db.updateTable('appUser').set({ totpPendingSecret: sealed }).where('id', '=', userId).execute();
    }
    const secret = open(sealed);
    return { secret, otpauthUri: generateURI({ issuer: state.resellerName, label: state.username, secret }) };
  }

  /** Confirms the pending secret with a code; true when the user is now enrolled. */
  async function confirm(userId: number, state: State, code: unknown) {
    if (!state.totpPendingSecret) return false;
    const step = await check(state.totpPendingSecret, null, code);
    if (step === undefined) return false;
    await db
      .updateTable('appUser')
      .set({ totpSecret: state.totpPendingSecret, totpPendingSecret: null, totpLastStep: step })
      .where('id', '=', userId)
      .execute();
    return true;
  }

  const service: TwoFactor = {
    async signIn(userId, code) {
      const state = await stateOf(userId);
      if (state.totpSecret) {
        if (!code) return { twoFactor: 'code' };
        const step = await check(state.totpSecret, state.totpLastStep, code);
        if (step === undefined) throw codeInvalid();
        // Conditional, so one code cannot open two sessions at once.
        const used = await db
          .updateTable('appUser')
          .set({ totpLastStep: step })
          .where('id', '=', userId)
          .where(sql<boolean>`coalesce(totp_last_step, -1) < ${step}`)
          .executeTakeFirst();
        if (!Number(used.numUpdatedRows)) throw codeInvalid();
        return undefined;
      }
      if (!state.required) return undefined;
      // Required but not enrolled: enrol now, before any session exists.
      if (!code) return { twoFactor: 'enrol', ...(await pendingEnrolment(userId, state)) };
      if (!(await confirm(userId, state, code))) throw codeInvalid();
      return undefined;
    },
  };

  function registerRoutes(app: FastifyInstance) {
    const codeBody = { type: 'object', required: ['code'], properties: { code: { type: 'string', maxLength: 10 } } };
    const codeField = () => invalid([fieldError('code', 'valid', 'twoFactor.codeInvalid')]);
    const attempts = { group: 'twoFactor', failuresOnly: true };

    app.get(
      '/portal/user/two-factor',
      { config: { signedIn: true }, schema: { tags: ['user'], summary: 'Whether the caller signs in with a second factor, and whether it is required' } },
      async (request) => {
        const state = await stateOf(principalOf(request).userId);
        return { enabled: !!state.totpSecret, required: state.required };
      },
    );

    app.post(
      '/portal/user/two-factor/enrol',
      { config: { signedIn: true }, schema: { tags: ['user'], summary: 'Start enrolment: a new secret and its otpauth:// address for the QR code' } },
      async (request) => {
        const { userId } = principalOf(request);
        const state = await stateOf(userId);
        if (state.totpSecret) throw new HttpError(409, 'TWO_FACTOR_ENABLED', 'twoFactor.alreadyEnabled');
        return pendingEnrolment(userId, state);
      },
    );

    app.post(
      '/portal/user/two-factor/confirm',
      { config: { signedIn: true, attempts }, schema: { tags: ['user'], summary: 'Finish enrolment with a code from the authenticator', body: codeBody } },
      async (request) => {
        const { userId } = principalOf(request);
        const state = await stateOf(userId);
        if (state.totpSecret) throw new HttpError(409, 'TWO_FACTOR_ENABLED', 'twoFactor.alreadyEnabled');
        if (!(await confirm(userId, state, (request.body as { code: string }).code))) throw codeField();
        return { enabled: true, required: state.required };
      },
    );

    app.post(
      '/portal/user/two-factor/disable',
      {
        config: { signedIn: true, attempts },
        schema: { tags: ['user'], summary: 'Stop signing in with a second factor; needs a current code', body: codeBody },
      },
      async (request) => {
        const { userId } = principalOf(request);
        const state = await stateOf(userId);
        if (!state.totpSecret) return { enabled: false, required: state.required };
        if (state.required) throw new HttpError(403, 'TWO_FACTOR_REQUIRED', 'twoFactor.requiredByReseller');
        if ((await check(state.totpSecret, state.totpLastStep, (request.body as { code: string }).code)) === undefined) throw codeField();
        await db.updateTable('appUser').set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null }).where('id', '=', userId).execute();
        return { enabled: false, required: false };
      },
    );

    const paging = pageQuery(200, 50, { search: { type: 'string', maxLength: 100 } });
    app.get(
      '/portal/admin/two-factor/resellers',
      {
        config: { adminOnly: true },
        schema: { tags: ['admin'], summary: 'Resellers with their two-factor requirement and how many users enrolled', querystring: paging },
      },
      async (request) => {
        const { page, size, search } = request.query as { page: number; size: number; search?: string };
        let q = db.selectFrom('reseller as r');
        if (search?.trim()) q = q.where(sql<boolean>`r.name ilike ${`%${search.trim().replace(/[\\%_]/g, '\\$&')}%`}`);
        const [items, count] = await Promise.all([
          q
            .select(['r.id', 'r.name', 'r.path', 'r.requireTwoFactor'])
            .select((eb) => [
              eb
                .selectFrom('appUser as u')
                .whereRef('u.resellerId', '=', 'r.id')
                .select((e) => e.fn.countAll<string>().as('n'))
                .as('users'),
              eb
                .selectFrom('appUser as u')
                .whereRef('u.resellerId', '=', 'r.id')
                .where('u.totpSecret', 'is not', null)
                .select((e) => e.fn.countAll<string>().as('n'))
                .as('enrolledUsers'),
            ])
            .orderBy('r.path')
            .limit(size)
            .offset(page * size)
            .execute(),
          q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
        ]);
        const total = Number(count.n);
        return pageAnswer(
          items.map((r) => ({ ...r, users: Number(r.users), enrolledUsers: Number(r.enrolledUsers) })),
          total,
          page,
          size,
        );
      },
    );

    app.put(
      '/portal/admin/two-factor/resellers/:id',
      {
        config: { adminOnly: true },
        schema: {
          tags: ['admin'],
          summary: 'Require (or stop requiring) a second factor from the users of a reseller and its sub-resellers',
          params: { type: 'object', properties: { id: { type: 'integer', minimum: INT_MIN, maximum: INT_MAX } } },
          body: { type: 'object', required: ['requireTwoFactor'], properties: { requireTwoFactor: { type: 'boolean' } } },
        },
      },
      async (request) => {
        const { id } = request.params as { id: number };
        const { requireTwoFactor } = request.body as { requireTwoFactor: boolean };
        const row = await db
          .updateTable('reseller')
          .set({ requireTwoFactor })
          .where('id', '=', id)
          .returning(['id', 'name', 'requireTwoFactor'])
          .executeTakeFirst();
        if (!row) throw notFound();
        return row;
      },
    );
  }

  return { ...service, registerRoutes };
}
