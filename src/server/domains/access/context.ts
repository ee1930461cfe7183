import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Database } from '../../db/types';
import type { Mailer } from '../../adapters/mail';
import type { RobotCheck } from '../../adapters/robot-check/altcha';
import type { JoinRequestFields } from '@shared/join';

export interface PasswordResetTable {
  id: Generated<number>;
  userId: number;
  tokenHash: string;
  expiresAt: ColumnType<Date, Date | string, Date | string>;
  usedAt: Date | null;
  createdAt: ColumnType<Date, never, never>;
}

export interface JoinRequestTable extends JoinRequestFields {
  id: Generated<number>;
  createdAt: ColumnType<Date, never, never>;
}

export type AccessDb = Database & { passwordReset: PasswordResetTable; joinRequest: JoinRequestTable };

/** What the access routes share: the database, the adapters and settings. */
export interface AccessContext {
  db: Kysely<AccessDb>;
  mailer: Mailer;
  /** The local outbox, also used when there is no address to send to. */
  outbox: Mailer;
  robotCheck: RobotCheck;
  /** Base of links in mails, without a trailing slash. */
  publicUrl: string;
  adminEmail?: string;
  /** Work that must not delay or shape the answer; it finishes before the server closes. */
  later(task: () => Promise<void>): void;
}

const ajv = new Ajv();
addFormats(ajv, ['email']);
const emailCheck = ajv.compile({ type: 'string', maxLength: 254, format: 'email' });

/** The same e-mail rule the schemas use (ajv-formats). */
export const isEmail = (value: string) => emailCheck(value);
