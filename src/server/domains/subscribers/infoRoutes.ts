import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import QRCode from 'qrcode';
import { isValidIccid, luhnValid } from '@shared/iccid';
import type { Mailer } from '../../adapters/mail';
import type { Engine } from '../../db';
import { queryBatches, sendCsv } from '../../engine/csv';
import { englishText, fieldError, HttpError, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idSchema, objectBody, pageQuery, pageSchema } from '../../http/input';
import type { Principal } from '../../http/principal';
import { isEmail } from '../access/context';
import { bodyOf, money, pageOf, pathId, requirePanel, scopeToCaller, toIso, visibleSubscriber, type Subscriber } from './context';
import { changeSubscriber } from './operationRoutes';
import { recordOperation } from './network';
import type { Database } from '../../db/types';
import { subtreePattern } from '../../http/tenancy';

import { isQosAllowed, QOS_BLOCK, qosSpeedLimits } from '../service-classes';
import {
  chargesSchema,
  dailyLimitSchema,
  equipmentSchema,
  messageSchema,
  migrationSchema,
  networkEventsSchema,
  qosSpeedLimitsSchema,
  simCardDetailSchema,
  simCardSchema,
  usageLogSchema,
} from './schemas';
import { pageAnswer } from '@shared/wire';

export { QOS_BLOCK };

/** The request log (CCR) shows at most this many rows. */
export const USAGE_LOG_LIMIT = 250;
/** A daily limit is a whole number of bytes above 0 and at most 1 PB. */
const MAX_DAILY_LIMIT = 1e15;

/** The daily limit, today's usage and what happens now: nothing, blocked, or throttled to the chosen speed. */
function dailyLimitView(sub: Pick<Subscriber, 'subscriberId' | 'dailyLimitBytes' | 'qosThrottling' | 'usageTodayBytes'>) {
  const limit = sub.dailyLimitBytes === null ? null : Number(sub.dailyLimitBytes);
  const usage = Number(sub.usageTodayBytes);
  const qos = sub.qosThrottling ?? QOS_BLOCK;
  const reached = limit !== null && usage >= limit;
  return {
    subscriberId: sub.subscriberId,
    dailyLimitBytes: limit,
    qosThrottling: limit === null ? null : qos,
    usageTodayBytes: usage,
    reached,
    effect: !reached ? null : qos === QOS_BLOCK ? 'blocked' : 'throttled',
  };
}

const EVENT_COLUMNS = ['createdAt', 'protocol', 'operation', 'imsi', 'plmn', 'result', 'detail', 'subject', 'requestId'] as const;

/** The detail panels and lists around a subscriber that read more than its row, and the SIM cards. */
export function registerSubscriberInfoRoutes(app: FastifyInstance, db: Kysely<Database>, engine: Engine, mailer: Mailer) {
  const config = { privilege: 'Subscribers' };
  const tags = ['subscribers'];
  const withPanel = async (request: FastifyRequest, panel?: string) => {
    const principal = requirePanel(request, panel);
    return { principal, sub: await visibleSubscriber(db, principal, pathId(request)) };
  };

  app.get(
    '/portal/reseller-info/api/qos-speed-limits',
    {
      config,
      schema: {
        tags,
        summary: 'Speeds a subscriber can be throttled to when its daily limit is reached',
        description:
          "The service classes the caller sees (its own subtree's, those of the resellers above it and the provider's): `id` is the speed id, `kbps` the downlink.",
        response: { 200: qosSpeedLimitsSchema },
      },
    },
    async (request) => qosSpeedLimits(db, principalOf(request)),
  );

  app.get(
    '/portal/subscriber-info/daily-limit/:id',
    {
      config,
      schema: { tags, summary: "Daily data limit, today's usage and whether the subscriber is blocked or throttled", response: { 200: dailyLimitSchema } },
    },
    async (request) => {
      const { sub } = await withPanel(request);
      return dailyLimitView(sub);
    },
  );

  app.post(
    '/portal/subscriber-info/daily-limit',
    {
      config,
      schema: {
        tags,
        summary: 'Set the daily data limit and what happens when it is reached',
        description:
          'Body `{ subscriberId, dailyLimitBytes, qosThrottling? }`: the limit is required and greater than 0; `qosThrottling` is `BLOCK` (the default) or a speed id of `GET /portal/reseller-info/api/qos-speed-limits`.',
        body: objectBody(
          {
            subscriberId: { ...idSchema(), errorMessage: 'validation.subscriberId.required' },
            dailyLimitBytes: { type: 'integer', exclusiveMinimum: 0, maximum: MAX_DAILY_LIMIT, errorMessage: 'validation.dailyLimit.positive' },
            qosThrottling: { type: 'string', maxLength: 40, errorMessage: 'validation.qos.invalid' },
          },
          ['subscriberId', 'dailyLimitBytes'],
          { subscriberId: 'validation.subscriberId.required', dailyLimitBytes: 'validation.dailyLimit.required' },
        ),
        response: { 200: dailyLimitSchema },
      },
    },
    async (request) => {
      const body = request.body as { subscriberId: number; dailyLimitBytes: number; qosThrottling?: string };
      const limit = body.dailyLimitBytes;
      const qos = body.qosThrottling ?? QOS_BLOCK;
      const principal = principalOf(request);
      if (!(await isQosAllowed(db, principal, qos))) throw invalid([fieldError('qosThrottling', 'enum', 'validation.qos.invalid')]);
      return db.transaction().execute(async (trx) => {
        const sub = await visibleSubscriber(trx, principal, body.subscriberId as number, true);
        await changeSubscriber(trx, sub.subscriberId, principal, 'daily-limit', { dailyLimitBytes: limit, qosThrottling: qos });
        await recordOperation(trx, principal, sub.subscriberId, 'daily-limit', { dailyLimitBytes: limit, qosThrottling: qos });
        return dailyLimitView(await visibleSubscriber(trx, principal, sub.subscriberId));
      });
    },
  );

  app.get('/portal/subscriber-info/apn/:id', { config, schema: { tags, summary: "The subscriber's access point name" } }, async (request) => {
    const { sub } = await withPanel(request, 'Apn');
    return { subscriberId: sub.subscriberId, apn: sub.apn };
  });

  app.post(
    '/portal/subscriber-info/charges/:id',
    {
      config,
      schema: { tags, summary: 'Charges and credits of the subscriber, newest first (body `{ page: { page, size } }`)', response: { 200: chargesSchema } },
    },
    async (request) => {
      const { page, size } = pageOf(bodyOf(request));
      const { sub } = await withPanel(request, 'Services');
      const base = db.selectFrom('subscriberCharge').where('subscriberId', '=', sub.subscriberId);
      const { n } = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const rows = await base
        .select(['id', 'kind', 'amount', 'description', 'accountId', 'username', 'createdAt'])
        .orderBy('id', 'desc')
        .limit(size)
        .offset(page * size)
        .execute();
      return pageAnswer(
        rows.map((r) => ({ ...r, id: Number(r.id), amount: money(r.amount), createdAt: toIso(r.createdAt) })),
        Number(n),
        page,
        size,
      );
    },
  );

  /** The visible subscriber owning an IMSI, its real one or a sponsor IMSI; 404 otherwise. */
  async function imsiOwner(request: FastifyRequest): Promise<{ imsi: string; principal: Principal }> {
    const imsi = (request.params as { imsi: string }).imsi;
    if (!/^\d{15}$/.test(imsi)) throw invalid([fieldError('imsi', 'pattern', 'validation.imsi.invalid')]);
    const principal = requirePanel(request, 'NetworkEvents');
    let q = db
      .selectFrom('subscriber as s')
      .innerJoin('reseller as r', 'r.id', 's.resellerId')
      .select('s.subscriberId')
      .where((eb) =>
        eb.or([eb('s.imsi', '=', imsi), eb('s.subscriberId', 'in', eb.selectFrom('sponsorImsi').select('subscriberId').where('imsi', '=', imsi))]),
      );
    q = scopeToCaller(q, principal);
    if (!(await q.executeTakeFirst())) throw notFound();
    return { imsi, principal };
  }
  const eventsOf = (imsi: string) => db.selectFrom('networkEvent').where('imsi', '=', imsi);

  app.post(
    '/portal/subscriber-info/network-events/:imsi',
    {
      config,
      schema: {
        tags,
        summary: 'Signalling events of an IMSI (real or sponsor), newest first (body `{ page: { page, size } }`)',
        response: { 200: networkEventsSchema },
      },
    },
    async (request) => {
      const { page, size } = pageOf(bodyOf(request));
      const { imsi } = await imsiOwner(request);
      const { n } = await eventsOf(imsi)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const rows = await eventsOf(imsi)
        .select(['id', ...EVENT_COLUMNS])
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(size)
        .offset(page * size)
        .execute();
      return pageAnswer(
        rows.map((r) => ({ ...r, id: Number(r.id), createdAt: toIso(r.createdAt) })),
        Number(n),
        page,
        size,
      );
    },
  );

  app.post(
    '/portal/subscriber-info/network-events/:imsi/download',
    {
      config,
      schema: { tags, summary: 'The same events as CSV, streamed from the database' },
    },
    async (request, reply) => {
      const { imsi } = await imsiOwner(request);
      const query = eventsOf(imsi)
        .select(['id', ...EVENT_COLUMNS])
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc');
      return sendCsv(reply, `network-events-${imsi}.csv`, EVENT_COLUMNS, queryBatches(db, engine, query), (row) => EVENT_COLUMNS.map((c) => row[c]));
    },
  );

  app.get(
    '/portal/subscriber-info/usage-logs/:id',
    {
      config,
      schema: {
        tags,
        summary: `The subscriber's credit-control requests (CCR), newest first, at most ${USAGE_LOG_LIMIT}`,
        querystring: { type: 'object', properties: { size: { type: 'integer', minimum: 1, maximum: USAGE_LOG_LIMIT, default: USAGE_LOG_LIMIT } } },
        response: { 200: usageLogSchema },
      },
    },
    async (request) => {
      const { sub } = await withPanel(request, 'UsageLogs');
      const { size } = request.query as { size: number };
      const rows = await db
        .selectFrom('usageRecord')
        .select(['id', 'at', 'imsi', 'requestType', 'plmn', 'apn', 'bytesUp', 'bytesDown', 'resultCode'])
        .where('subscriberId', '=', sub.subscriberId)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(Math.min(size, USAGE_LOG_LIMIT))
        .execute();
      return rows.map((r) => ({ ...r, id: Number(r.id), at: toIso(r.at), bytesUp: Number(r.bytesUp), bytesDown: Number(r.bytesDown) }));
    },
  );

  app.get(
    '/portal/summa/subscriber-migration/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Migration status to the external core platform: pending, success, error, or null when never migrated',
        response: { 200: migrationSchema },
      },
    },
    async (request) => {
      const { sub } = await withPanel(request, 'MigrationStatus');
      return { subscriberId: sub.subscriberId, migrationStatus: sub.migrationStatus };
    },
  );

  app.post(
    '/portal/misc/equipment',
    {
      config,
      schema: {
        tags,
        summary: 'Make and model of a device from its IMEI (its first 8 digits, the TAC)',
        body: objectBody({ imei: { type: 'string', maxLength: 50, pattern: '^[0-9]{14,16}$', errorMessage: 'validation.imei.invalid' } }, ['imei'], {
          imei: 'validation.imei.invalid',
        }),
        response: { 200: equipmentSchema },
      },
    },
    async (request) => {
      const { imei } = request.body as { imei: string };
      if (imei.length === 15 && !luhnValid(imei)) throw invalid([fieldError('imei', 'checkDigit', 'validation.imei.checkDigit')]);
      const tac = imei.slice(0, 8);
      const row = await db.selectFrom('equipmentTac').select(['make', 'model', 'deviceType']).where('tac', '=', tac).executeTakeFirst();
      if (!row) throw new HttpError(404, 'NOT_FOUND', 'error.equipment.unknown');
      return { imei, tac, ...row };
    },
  );

  /** SIM cards of the caller's reseller subtree; an account user's are those of its account's subscribers. */
  const simCards = (principal: Principal) => {
    let q = db.selectFrom('simCard as c').innerJoin('reseller as r', 'r.id', 'c.resellerId').leftJoin('subscriber as s', 's.iccid', 'c.iccid');
    if (!principal.isAdmin) {
      q = q.where('r.path', 'like', subtreePattern(principal));
      if (principal.accountId !== null) q = q.where('s.accountId', '=', principal.accountId);
    }
    return q;
  };
  const SIM_COLUMNS = [
    'c.iccid',
    'c.simType',
    'c.status',
    'c.statusDate',
    'c.profileType',
    'c.batch',
    'c.cost',
    'c.serviceProviderName',
    'c.resellerId',
    'r.name as resellerName',
    's.subscriberId',
    's.name as subscriberName',
  ] as const;
  const simToWire = (r: Record<string, unknown>) => ({ ...r, cost: money(r.cost), statusDate: toIso(r.statusDate) });
  const simCardConfig = { privilege: ['Subscribers', 'Inventory'] };
  const iccidOf = (request: FastifyRequest) => {
    const iccid = (request.params as { iccid: string }).iccid;
    if (!isValidIccid(iccid)) throw invalid([fieldError('iccid', 'pattern', 'validation.iccid.invalid')]);
    return iccid;
  };
  const noSimCard = () => new HttpError(404, 'NOT_FOUND', 'error.simCard.notFound');

  app.get(
    '/portal/sim-cards',
    {
      config: simCardConfig,
      schema: {
        tags,
        summary: 'SIM cards, by ICCID (searchKey matches part of it)',
        querystring: pageQuery(500, 50, {
          searchKey: { type: 'string', pattern: '^\\d{1,22}$' },
          status: { type: 'string', enum: ['inventory', 'active', 'suspended', 'retired'] },
          simType: { type: 'string', enum: ['physical', 'esim'] },
        }),
        response: { 200: pageSchema(simCardSchema) },
      },
    },
    async (request) => {
      const q = request.query as { page: number; size: number; searchKey?: string; status?: string; simType?: string };
      let base = simCards(principalOf(request));
      if (q.searchKey) base = base.where('c.iccid', 'like', `%${q.searchKey}%`);
      if (q.status) base = base.where('c.status', '=', q.status);
      if (q.simType) base = base.where('c.simType', '=', q.simType);
      const { n } = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const rows = await base
        .select([...SIM_COLUMNS])
        .orderBy('c.iccid')
        .limit(q.size)
        .offset(q.page * q.size)
        .execute();
      return pageAnswer(rows.map(simToWire), Number(n), q.page, q.size);
    },
  );

  const simCard = async (request: FastifyRequest) => {
    const iccid = iccidOf(request);
    const row = await simCards(principalOf(request))
      .select([...SIM_COLUMNS, 'c.activationCode'])
      .where('c.iccid', '=', iccid)
      .executeTakeFirst();
    if (!row) throw noSimCard();
    return row as Record<string, unknown>;
  };

  app.get(
    '/portal/sim-cards/:iccid',
    { config: simCardConfig, schema: { tags, summary: 'One SIM card; an eSIM with its activation code', response: { 200: simCardDetailSchema } } },
    async (request) => simToWire(await simCard(request)),
  );

  app.post(
    '/portal/sim-cards/:iccid',
    {
      config: simCardConfig,
      schema: {
        tags,
        summary: "E-mail the eSIM's activation QR code",
        body: objectBody({ email: { type: 'string', maxLength: 254, errorMessage: 'validation.email.required' } }, ['email'], {
          email: 'validation.email.required',
        }),
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      // Surrounding blanks are forgiven, so the format is checked here, after trimming.
      const email = (request.body as { email: string }).email;
      if (!email.trim()) throw invalid([fieldError('email', 'required', 'validation.email.required')]);
      if (!isEmail(email.trim())) throw invalid([fieldError('email', 'format', 'validation.email.invalid')]);
      const sim = await simCard(request);
      if (sim.simType !== 'esim' || !sim.activationCode) throw invalid([fieldError('iccid', 'esim', 'validation.simCard.notEsim')]);
      const code = String(sim.activationCode);
      const image = await QRCode.toDataURL(code, { errorCorrectionLevel: 'M', margin: 2, width: 320 });
      const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
      await mailer.send({
        to: email.trim(),
        subject: `eSIM activation code for ${sim.iccid}`,
        text: `Scan the QR code with the device that should receive the eSIM, or enter the activation code by hand:\n\n${code}\n\nICCID: ${sim.iccid}`,
        html: `<p>Scan the QR code with the device that should receive the eSIM, or enter the activation code by hand.</p><p><img src="${image}" alt="eSIM activation QR code" width="320" height="320"></p><p><code>${escape(code)}</code></p><p>ICCID: ${escape(String(sim.iccid))}</p>`,
      });
      request.log.info({ iccid: sim.iccid }, 'eSIM activation code mailed');
      return { message: englishText('simCard.qrSent') };
    },
  );
}
