import type { FastifyBaseLogger } from 'fastify';
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Mail, Mailer } from './index';
import type { Database } from '../../db/types';

export interface OutboxTable {
  id: Generated<number>;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: ColumnType<Date, never, never>;
}

type OutboxDb = Kysely<{ outbox: OutboxTable }>;

/** What the outbox shows in place of a secret: never usable, so reading the outbox takes over no account. */
export const MASKED = '[hidden: sent to the addressee only]';

const masked = (text: string, secrets: string[] = []) => secrets.filter(Boolean).reduce((t, secret) => t.split(secret).join(MASKED), text);

/**
 * The local default: mail is kept in a table and written to the log, so a single machine without a mail server
 * still works. The table, which the administrator reads at GET /portal/admin/outbox, keeps a mail's secrets (reset
 * tokens) masked; the log line, which only whoever runs the server reads, carries the mail whole.
 */
export function createOutbox(db: Kysely<Database>, log: FastifyBaseLogger): Mailer {
  const outbox = db as OutboxDb;
  return {
    async send(mail: Mail) {
      const { id } = await outbox
        .insertInto('outbox')
        .values({
          to: mail.to,
          subject: mail.subject,
          text: masked(mail.text, mail.secrets),
          html: mail.html === undefined ? null : masked(mail.html, mail.secrets),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      log.info({ outbox: { id, to: mail.to, subject: mail.subject, text: mail.text } }, 'mail kept in the outbox');
    },
  };
}

/** Newest first. */
export async function listOutbox(db: Kysely<Database>, page: number, size: number) {
  const outbox = db as OutboxDb;
  const [items, total] = await Promise.all([
    outbox
      .selectFrom('outbox')
      .select(['id', 'to', 'subject', 'text', 'html', 'createdAt'])
      .orderBy('id', 'desc')
      .limit(size)
      .offset(page * size)
      .execute(),
    outbox
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.n) };
}
