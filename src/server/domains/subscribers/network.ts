import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { CoreNetworkAnswer, CoreNetworkOperation } from '../../adapters/core-network';
import { conflict, englishText, fieldError, HttpError } from '../../http/errors';
import type { Principal } from '../../http/principal';
import { pgCode, toIso, type Subscriber } from './context';
import type { Database } from '../../db/types';
import { jsonRecords, slices } from '../../db/jsonRecords';

/** Who asked for an operation: enough of a principal for the audit log once the answer arrives. */
export type Actor = Pick<Principal, 'userId' | 'username'>;

/** An operation that goes through the core network; `apply` changes the subscriber once the network confirmed. */
export interface NetworkOperation {
  /** The name the operation record carries, e.g. `suspend`, `cancel-location`. */
  name: string;
  network: CoreNetworkOperation;
  /** What was asked (stored with the record and sent as the request's payload). */
  request?: Record<string, unknown>;
  /** Runs in the transaction that marks the operation successful; writes the audit entry of what it changes. */
  apply?: (trx: Kysely<Database>, subscriberId: number, actor: Actor) => Promise<void>;
}

/** No answer after this long (a server stopped mid-flight): the operation failed and no longer blocks the next. */
const STALE_MINUTES = 5;

type Row = Record<string, unknown>;

/** An operation record on the wire; a failed one carries its error in the portal's error shape. */
export function operationToWire(row: Row) {
  const failed = row.status === 'failed';
  const messageId = row.messageId as string | null;
  return {
    id: Number(row.id),
    subscriberId: row.subscriberId,
    operation: row.operation,
    status: row.status,
    request: typeof row.request === 'string' ? JSON.parse(row.request) : (row.request ?? {}),
    username: row.username,
    createdAt: toIso(row.createdAt),
    finishedAt: toIso(row.finishedAt),
    ...(failed
      ? { error: { code: 'NETWORK_FAILED', messageId, message: englishText(messageId ?? 'subscriberOperation.failed.network'), detail: row.detail } }
      : {}),
  };
}

/** The portal's message for a network failure, from the operation and the network's own words. */
function failureMessage(network: CoreNetworkOperation, detail: string | undefined): string {
  const text = detail ?? '';
  if (network === 'cancelLocation') return 'subscriberOperation.failed.cancelLocation';
  if (/not online|absent subscriber/i.test(text)) return 'subscriberOperation.failed.notOnline';
  if (/\bOTA\b/.test(text)) return 'subscriberOperation.failed.ota';
  if (/timeout|no answer/i.test(text)) return 'subscriberOperation.failed.noAnswer';
  return 'subscriberOperation.failed.network';
}

/**
 * Records an operation as pending and sends it to the core network; answers at once with the record, which the
 * web app polls (`GET /portal/subscriber-info/operations/{id}`). When the network answers, a success applies the
 * change, its audit entry and the final status in one transaction; a failure only marks the record failed, so
 * the subscriber stays as it was.
 */
export async function startNetworkOperation(app: FastifyInstance, db: Kysely<Database>, principal: Principal, subscriber: Subscriber, op: NetworkOperation) {
  const subscriberId = subscriber.subscriberId;
  await db
    .updateTable('subscriberOperation')
    .set({ status: 'failed', messageId: 'subscriberOperation.failed.noAnswer', finishedAt: sql`now()` })
    .where('subscriberId', '=', subscriberId)
    .where('status', '=', 'pending')
    .where('createdAt', '<', sql<Date>`now() - make_interval(mins => ${STALE_MINUTES})`)
    .execute();
  let row: Row;
  try {
    row = await db
      .insertInto('subscriberOperation')
      .values({
        subscriberId,
        operation: op.name,
        status: 'pending',
        request: JSON.stringify(op.request ?? {}),
        userId: principal.userId,
        username: principal.username,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (e) {
    if (pgCode(e) === '23505') throw conflict([fieldError('subscriberId', 'pending', 'error.operation.pending')]);
    throw e;
  }
  const actor: Actor = { userId: principal.userId, username: principal.username };
  app.coreNetwork.dispatch(
    {
      operation: op.network,
      resellerId: subscriber.resellerId,
      imsi: subscriber.imsi,
      subscriberId,
      subject: `subscriber-operation:${row.id}`,
      payload: op.request,
    },
    (answer) => finish(db, Number(row.id), subscriberId, op, answer, actor),
  );
  return operationToWire(row);
}

async function finish(db: Kysely<Database>, id: number, subscriberId: number, op: NetworkOperation, answer: CoreNetworkAnswer, actor: Actor) {
  let messageId = answer.ok ? undefined : failureMessage(op.network, answer.detail);
  let detail = answer.detail ?? null;
  if (answer.ok) {
    try {
      await db.transaction().execute(async (trx) => {
        await op.apply?.(trx, subscriberId, actor);
        await trx
          .updateTable('subscriberOperation')
          .set({ status: 'success', detail, networkRequestId: answer.requestId, finishedAt: sql`now()` })
          .where('id', '=', id)
          .execute();
      });
      return;
    } catch (e) {
      // The network took the change but the portal could not record it (e.g. the number was taken meanwhile).
      messageId = e instanceof HttpError ? (e.fields?.[0]?.messageId ?? 'subscriberOperation.failed.apply') : 'subscriberOperation.failed.apply';
      detail = e instanceof Error ? e.message : String(e);
    }
  }
  await db
    .updateTable('subscriberOperation')
    .set({ status: 'failed', messageId, detail, networkRequestId: answer.requestId, finishedAt: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Operation records per statement: one JSON parameter each. */
const OPERATION_BATCH = 10000;

/** Records the same operation, completed by the portal, on many subscribers, as `recordOperation` does for one. */
export async function recordOperations(
  trx: Kysely<Database>,
  principal: Actor,
  subscriberIds: readonly number[],
  name: string,
  request: Record<string, unknown>,
) {
  await recordOperationRows(
    trx,
    principal,
    subscriberIds.map((subscriberId) => ({ subscriberId, operation: name, request })),
  );
}

/**
 * Records operations the portal completed by itself, each subscriber's own (its name and request), in one statement
 * per ten thousand: the rows go as one JSON value rather than seven parameters each.
 */
export async function recordOperationRows(
  trx: Kysely<Database>,
  principal: Actor,
  operations: readonly { subscriberId: number; operation: string; request: Record<string, unknown> }[],
) {
  const rows = operations.map((o) => ({ subscriber_id: o.subscriberId, operation: o.operation, request: o.request }));
  for (const slice of slices(rows, OPERATION_BATCH))
    await sql`insert into subscriber_operation (subscriber_id, operation, status, request, user_id, username, finished_at)
      select v.subscriber_id, v.operation, 'success', v.request, ${principal.userId}::integer, ${principal.username}::text, now()
      from ${jsonRecords(slice, { subscriber_id: 'integer', operation: 'text', request: 'jsonb' })}`.execute(trx);
}

/** Records an operation the portal completes by itself (billing, settings) in the transaction of its change. */
export async function recordOperation(trx: Kysely<Database>, principal: Principal, subscriberId: number, name: string, request: Record<string, unknown>) {
  const row = await trx
    .insertInto('subscriberOperation')
    .values({
      subscriberId,
      operation: name,
      status: 'success',
      request: JSON.stringify(request),
      userId: principal.userId,
      username: principal.username,
      finishedAt: sql<Date>`now()`,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return operationToWire(row);
}
