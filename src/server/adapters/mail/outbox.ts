import type { FastifyBaseLogger } from 'fastify';
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Mail, Mailer } from './index';

export interface OutboxTable {
  id: Generated<number>;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: ColumnType<Date, never, never>;
}

type OutboxDb = Kysely<{ outbox: OutboxTable }>;

/**
 * The local default: mail is kept in a table and written to the log, so a single machine without a mail
 * server still delivers reset links (the administrator reads them at GET /portal/admin/outbox).
 */
export function createOutbox(db: Kysely<any>, log: FastifyBaseLogger): Mailer {
  const outbox = db as OutboxDb;
  return {
    async send(mail: Mail) {
      const { id } = await outbox.insertInto('outbox')
        .values({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? null })
        .returning('id').executeTakeFirstOrThrow();
      log.info({ outbox: { id, to: mail.to, subject: mail.subject, text: mail.text } }, 'mail kept in the outbox');
    },
  };
}

/** Newest first. */
export async function listOutbox(db: Kysely<any>, page: number, size: number) {
  const outbox = db as OutboxDb;
  const [items, total] = await Promise.all([
    outbox.selectFrom('outbox').select(['id', 'to', 'subject', 'text', 'html', 'createdAt']).orderBy('id', 'desc').limit(size).offset(page * size).execute(),
    outbox.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.n) };
}
