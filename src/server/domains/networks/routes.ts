import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { COUNTRY_CODES, countryNames } from '@shared/countries';
import type {} from '@shared/wire';
import { forbidden } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { pageQuery, parseTime } from '../../http/input';
import { refreshNetworks, type RefreshReport } from './catalogue';
import type { Database } from '../../db/types';
import { escapeLike, subtreePattern } from '../../http/tenancy';
import { pageAnswer } from '@shared/wire';

/** The portal's languages; each country carries its name in all of them. */
const LANGUAGES = ['en', 'ru', 'de', 'he', 'zh-Hans', 'es'] as const;

/** The catalogue's pages: up to 5000 networks at once (the allowed-list screens read whole countries). */
const pages = pageQuery(5000, 100).properties;

/** Reference data every signed-in user reads, the admin's catalogue refresh, and the signalling log. */
export function registerNetworkRoutes(app: FastifyInstance, db: Kysely<Database>, onRefresh?: (report: RefreshReport) => Promise<void>) {
  app.get(
    '/portal/networks',
    {
      config: { signedIn: true },
      schema: {
        tags: ['networks'],
        summary: 'A page of the network catalogue, by country or search text',
        querystring: {
          type: 'object',
          properties: { ...pages, country: { type: 'string', pattern: '^[A-Z]{2}$' }, searchKey: { type: 'string', maxLength: 100 } },
        },
      },
    },
    async (request) => {
      const q = request.query as { page: number; size: number; country?: string; searchKey?: string };
      let base = db.selectFrom('network').where('withdrawnAt', 'is', null);
      if (q.country) base = base.where('country', '=', q.country);
      const key = q.searchKey?.trim();
      if (key) {
        const like = `%${escapeLike(key)}%`;
        base = base.where((eb) => eb.or([eb('plmn', 'like', like), eb('operator', 'ilike', like), eb('brand', 'ilike', like)]));
      }
      const { n } = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const items = await base
        .select(['id', 'plmn', 'mcc', 'mnc', 'country', 'operator', 'brand', 'status', 'bands'])
        .orderBy('country')
        .orderBy('plmn')
        .limit(q.size)
        .offset(q.page * q.size)
        .execute();
      return pageAnswer(items, Number(n), q.page, q.size);
    },
  );

  app.get('/portal/misc/countries', { config: { signedIn: true }, schema: { tags: ['networks'], summary: 'Every country with its code' } }, async () => {
    const names = Object.fromEntries(LANGUAGES.map((l) => [l, countryNames(l)]));
    const networks = await db
      .selectFrom('network')
      .select(['plmn', 'mcc', 'mnc', 'country', 'operator', 'brand'])
      .where('withdrawnAt', 'is', null)
      .orderBy('plmn')
      .execute();
    const byCountry = new Map<string, typeof networks>();
    for (const n of networks) byCountry.set(n.country, [...(byCountry.get(n.country) ?? []), n]);
    return COUNTRY_CODES.map((code) => ({
      code,
      names: Object.fromEntries(LANGUAGES.map((l) => [l, names[l][code]])),
      networks: (byCountry.get(code) ?? []).map(({ country: _country, ...n }) => n),
    }));
  });

  app.get('/portal/time-zones', { config: { signedIn: true }, schema: { tags: ['networks'], summary: 'The time zones a user may choose' } }, async () => ({
    timeZones: Intl.supportedValuesOf('timeZone'),
  }));

  app.post(
    '/portal/admin/update-sponsor-networks',
    { config: { adminOnly: true }, schema: { tags: ['networks'], summary: 'Refreshes the network catalogue from its source' } },
    async (request) => {
      const report = await refreshNetworks(db);
      request.log.info({ added: report.added.length, updated: report.updated.length, withdrawn: report.withdrawn.length }, 'network catalogue refreshed');
      await onRefresh?.(report);
      return report;
    },
  );

  app.get(
    '/portal/network-events/ss7',
    {
      config: { privilege: ['Subscribers', 'SubscriberDetails', 'AllowedLists'] },
      schema: {
        tags: ['networks'],
        summary: 'Signalling events of the network log, by time and subscriber',
        querystring: {
          type: 'object',
          properties: {
            ...pageQuery(500, 50).properties,
            imsi: { type: 'string', pattern: '^\\d{6,15}$' },
            plmn: { type: 'string', pattern: '^\\d{5,6}$' },
            operation: { type: 'string', maxLength: 50 },
            result: { type: 'string', enum: ['success', 'failure'] },
            subject: { type: 'string', maxLength: 100 },
            from: { type: 'string', format: 'date-time' },
            to: { type: 'string', format: 'date-time' },
          },
        },
      },
    },
    async (request: FastifyRequest) => {
      const principal = principalOf(request);
      // The log of a reseller's requests; an account user reads its subscribers' events on their own pages.
      if (principal.accountId !== null) throw forbidden();
      const q = request.query as {
        page: number;
        size: number;
        imsi?: string;
        plmn?: string;
        operation?: string;
        result?: string;
        subject?: string;
        from?: string;
        to?: string;
      };
      let base = db.selectFrom('networkEvent as e');
      if (!principal.isAdmin) {
        base = base.where('e.resellerId', 'in', (eb) => eb.selectFrom('reseller').select('id').where('path', 'like', subtreePattern(principal)));
      }
      for (const field of ['imsi', 'plmn', 'operation', 'result', 'subject'] as const) {
        if (q[field]) base = base.where(`e.${field}`, '=', q[field]);
      }
      if (q.from) base = base.where('e.createdAt', '>=', parseTime(q.from, 'from'));
      if (q.to) base = base.where('e.createdAt', '<', parseTime(q.to, 'to'));
      const { n } = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const rows = await base
        .select([
          'e.id',
          'e.requestId',
          'e.protocol',
          'e.operation',
          'e.imsi',
          'e.plmn',
          'e.result',
          'e.detail',
          'e.resellerId',
          'e.subscriberId',
          'e.subject',
          'e.createdAt',
        ])
        .orderBy('e.createdAt', 'desc')
        .orderBy('e.id', 'desc')
        .limit(q.size)
        .offset(q.page * q.size)
        .execute();
      const items = rows.map((r) => ({ ...r, id: Number(r.id), createdAt: r.createdAt.toISOString() }));
      return pageAnswer(items, Number(n), q.page, q.size);
    },
  );
}
