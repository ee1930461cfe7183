import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { createMailer, createOutbox, type Mailer, type MailSettings } from '../../adapters/mail';
import { createAltcha, type AltchaSettings } from '../../adapters/robot-check/altcha';
import { registerAccessAdminRoutes } from './admin';
import type { AccessContext, AccessDb } from './context';
import { registerJoinRoutes } from './join';
import { registerAttemptLimits, type LimitSettings } from './limits';
import { registerPasswordRoutes } from './password';

/** Settings of the public access calls: password reset, join requests, and their limits. */
export interface AccessOptions {
  /** Base of links in mails, e.g. https://portal.example.com. */
  publicUrl?: string;
  /** Receives join requests; else the administrator's e-mail, else the outbox. */
  adminEmail?: string;
  mail?: MailSettings;
  /** Replaces the configured mailer (tests). */
  mailer?: Mailer;
  altcha?: AltchaSettings;
  limits?: LimitSettings;
}

/**
 * Password reset and change, join requests with the robot check, the admin's outbox and join lists, and the
 * attempt limits of public calls. Registered before the other routes, whose `config.attempts` it applies.
 */
export async function registerAccess(app: FastifyInstance, db: Kysely<Database>, options: AccessOptions = {}) {
  await registerAttemptLimits(app, db, options.limits);
  const tasks = new Set<Promise<void>>();
  const outbox = createOutbox(db, app.log);
  const ctx: AccessContext = {
    db: db as Kysely<AccessDb>,
    outbox,
    mailer: options.mailer ?? createMailer(db, app.log, options.mail),
    robotCheck: await createAltcha(db, options.altcha),
    publicUrl: (options.publicUrl ?? 'http://localhost:8080').replace(/\/+$/, ''),
    adminEmail: options.adminEmail,
    later(task) {
      const run = task()
        .catch((err) => app.log.error({ err }, 'background mail task failed'))
        .finally(() => tasks.delete(run));
      tasks.add(run);
    },
  };
  // Mail still being sent when the server stops is finished first (the database closes after the app).
  app.addHook('onClose', async () => {
    await Promise.all([...tasks]);
  });
  registerPasswordRoutes(app, ctx);
  registerJoinRoutes(app, ctx);
  registerAccessAdminRoutes(app, ctx);
}
