import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { createOutbox } from './outbox';
import { createSmtpMailer } from './smtp';
import type { Database } from '../../db/types';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * Parts of the text only the addressee may read (a password reset token). Sent as they are; the local outbox,
   * which the administrator reads, keeps them masked (the server log, the operator's, has them in full).
   */
  secrets?: string[];
}

/** Sends mail: through SMTP when configured, else into the outbox table the administrator reads. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export interface MailSettings {
  /** e.g. smtp://user:pass@smtp.example.com:587 or smtps://…; absent: the outbox. */
  smtpUrl?: string;
  from?: string;
}

export function createMailer(db: Kysely<Database>, log: FastifyBaseLogger, settings: MailSettings = {}): Mailer {
  return settings.smtpUrl ? createSmtpMailer(settings.smtpUrl, settings.from ?? 'portal@localhost') : createOutbox(db, log);
}

export { createOutbox, listOutbox } from './outbox';
