import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { createChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';

/** Self-hosted proof of work on public forms: no third party sees the visitor. */
export interface RobotCheck {
  /** A signed challenge for the widget. */
  challenge(): Promise<Challenge>;
  /**
   * Whether the payload is a genuine, unexpired solution that was not used before. `check` is the widget's
   * early verification: it remembers the solution, and a second check answers false. `consume` is the
   * form's submission: it accepts a solution checked once, and never again.
   */
  verify(payload: string, mode: 'check' | 'consume'): Promise<boolean>;
}

export interface AltchaSettings {
  /** HMAC key signing challenges; absent: generated once and kept in the database. */
  hmacKey?: string;
  /** PBKDF2 iterations per attempt. */
  cost?: number;
  /** The solver tries about this many counters (between half of it and all of it). */
  maxCounter?: number;
  expiresInSeconds?: number;
}

interface SolutionTable {
  challengeId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

const ALGORITHM = 'PBKDF2/SHA-256';

export async function createAltcha(db: Kysely<Database>, settings: AltchaSettings = {}): Promise<RobotCheck> {
  const store = db as Kysely<{ altchaSolution: SolutionTable; setting: { key: string; value: string } }>;
  let key = settings.hmacKey;
  if (!key) {
    // Kept in the database like the token key, so several servers on one PostgreSQL accept each other's challenges.
    await store
      .insertInto('setting')
      .values({ key: 'altcha_hmac_key', value: randomBytes(32).toString('base64url') })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    key = (await store.selectFrom('setting').select('value').where('key', '=', 'altcha_hmac_key').executeTakeFirstOrThrow()).value;
  }
  // A second secret signs the expected key, so verifying costs one HMAC instead of a key derivation.
  const keySecret = createHmac('sha256', key).update('altcha-derived-key').digest('hex');
  const cost = settings.cost ?? 5000;
  const maxCounter = Math.max(2, settings.maxCounter ?? 10000);
  const expiresIn = settings.expiresInSeconds ?? 600;

  async function genuine(payload: string): Promise<{ id: string; expiresAt: number } | undefined> {
    try {
      const decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as { challenge?: Challenge; solution?: Solution };
      const { challenge, solution } = decoded;
      if (!challenge?.parameters || !challenge.signature || !solution || challenge.parameters.algorithm !== ALGORITHM) return undefined;
      const result = await verifySolution({ challenge, solution, deriveKey, hmacSignatureSecret: key!, hmacKeySignatureSecret: keySecret });
      const { nonce, expiresAt } = challenge.parameters;
      return result.verified && expiresAt ? { id: nonce, expiresAt } : undefined;
    } catch {
      return undefined; // not base64, not JSON, not a challenge: simply not a solution
    }
  }

  return {
    challenge: () =>
      createChallenge({
        algorithm: ALGORITHM,
        cost,
        deriveKey,
        counter: randomInt(Math.floor(maxCounter / 2), maxCounter),
        expiresAt: new Date(Date.now() + expiresIn * 1000),
        hmacSignatureSecret: key!,
        hmacKeySignatureSecret: keySecret,
      }),

    async verify(payload, mode) {
      const solved = await genuine(payload);
      if (!solved) return false;
      await store
        .deleteFrom('altchaSolution')
        .where('expiresAt', '<', sql<Date>`now()`)
        .execute();
      const expiresAt = new Date(solved.expiresAt * 1000);
      if (mode === 'check') {
        const row = await store
          .insertInto('altchaSolution')
          .values({ challengeId: solved.id, expiresAt, usedAt: null })
          .onConflict((oc) => oc.column('challengeId').doNothing())
          .returning('challengeId')
          .executeTakeFirst();
        return !!row;
      }
      // One statement, so two simultaneous submissions of one solution cannot both pass.
      const row = await store
        .insertInto('altchaSolution')
        .values({ challengeId: solved.id, expiresAt, usedAt: sql<Date>`now()` })
        .onConflict((oc) =>
          oc
            .column('challengeId')
            .doUpdateSet({ usedAt: sql<Date>`now()` })
            .where('altchaSolution.usedAt', 'is', null),
        )
        .returning('challengeId')
        .executeTakeFirst();
      return !!row;
    },
  };
}
