import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { hasPrivilege, isAdministrator, normalisePrivileges, type PrivilegeItem } from '@shared/privileges';
import type { Db } from '../db';
import type { Database } from '../db/types';

/** Who is calling: the user, the reseller's place in the tree and the role's privileges (see `Principals`). */
export interface Principal {
  userId: number;
  username: string;
  resellerId: number;
  /** Materialised path of the user's reseller: the user sees rows of resellers under it. */
  resellerPath: string;
  accountId: number | null;
  /** A user of the provider (reseller -1) whose role holds the Administrator privilege. */
  isAdmin: boolean;
  privileges: PrivilegeItem[];
}

/** A principal as the guard loads it, with what decides whether a token still stands for it. */
export interface Caller extends Principal {
  /** Tokens carry the version they were issued for; the user's password, role or disabled flag changing raises it. */
  sessionVersion: number;
  disabled: boolean;
}

export async function loadPrincipal(db: Kysely<Database>, userId: number): Promise<Caller | undefined> {
  const row = await db
    .selectFrom('appUser as u')
    .innerJoin('reseller as r', 'r.id', 'u.resellerId')
    .leftJoin('role as ro', 'ro.id', 'u.roleId')
    .select(['u.id', 'u.username', 'u.resellerId', 'u.accountId', 'u.sessionVersion', 'u.disabled', 'r.path', 'ro.privileges'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  const stored = typeof row.privileges === 'string' ? JSON.parse(row.privileges) : row.privileges;
  const privileges = normalisePrivileges(Array.isArray(stored) ? stored : []);
  return {
    userId: row.id,
    username: row.username,
    resellerId: row.resellerId,
    resellerPath: row.path,
    accountId: row.accountId,
    isAdmin: isAdministrator(row.resellerId, privileges),
    privileges,
    sessionVersion: row.sessionVersion,
    disabled: row.disabled,
  };
}

export function can(principal: Principal, privilege: string, sub?: string) {
  return hasPrivilege(principal.privileges, privilege, sub);
}

/** The channel the database notifies when a user, role or reseller path changes (migration 0080). */
export const PRINCIPAL_CHANNEL = 'portal_principal';

/** The tables a principal is read from: a write to any of them forgets every kept principal. */
const PRINCIPAL_TABLES = ['app_user', 'role', 'reseller'];

/**
 * Principals kept between requests, so a signed-in user's call does not read the database before its own work. A
 * change to a user, role or reseller path applies at once all the same:
 * - this process forgets them all as soon as it has run such an UPDATE or DELETE itself;
 * - every server on the database forgets them when the change commits (a trigger notifies, see migration 0080),
 *   changes made with psql included;
 * - a load that began before a change is not kept;
 * - while the notification connection is down, nothing is kept and every request reads the database;
 * - nothing is kept longer than `ttlMs`, a bound should a connection die without a word.
 */
export class Principals {
  private readonly kept: LRUCache<number, Caller>;
  private generation = 0;
  private listening = false;

  constructor(
    private readonly db: Kysely<Database>,
    ttlMs = 30_000,
  ) {
    this.kept = new LRUCache({ max: 10_000, ttl: ttlMs });
  }

  /** Starts keeping principals: resolves to a function that stops. */
  async start(database: { listen: Db['listen']; watchWrites: Db['watchWrites'] }): Promise<() => Promise<void>> {
    database.watchWrites(PRINCIPAL_TABLES, () => this.forget());
    return database.listen(PRINCIPAL_CHANNEL, {
      notify: () => this.forget(),
      live: (listening) => {
        this.listening = listening;
        this.forget();
      },
    });
  }

  forget() {
    this.generation++;
    this.kept.clear();
  }

  async load(userId: number): Promise<Caller | undefined> {
    if (!this.listening) return loadPrincipal(this.db, userId);
    const known = this.kept.get(userId);
    if (known) return known;
    const generation = this.generation;
    const principal = await loadPrincipal(this.db, userId);
    if (principal && this.listening && generation === this.generation) this.kept.set(userId, principal);
    return principal;
  }
}

/** The resellers of a materialised path (`/-1/3/7/`), from the provider down to the tenant itself. */
export const resellerPathIds = (path: string): number[] => path.split('/').filter(Boolean).map(Number);
