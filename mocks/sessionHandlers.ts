/** Sign-in, renewal, the profile, privileges, preferences, version, exchange rates, the plan lists and the reseller list. */
import { HttpResponse } from 'msw';
import type { MockDatabase } from './data';
import { errorResponse, unauthorizedResponse } from './http';
import { callerOf, visibleResellerIds } from './session';
import { mockToken } from './token';
import { openApiHttp } from './openapiHttp';

export function sessionHandlers(db: MockDatabase, base: string) {
  const http = openApiHttp(base);
  return [
    http.post('/auth', async ({ request }) => {
      const body = (await request.json()) as { userName?: string; password?: string };
      const name = (body.userName ?? '').trim().toLowerCase();
      const user = db.users.find((u) => (u.username.toLowerCase() === name || u.email?.toLowerCase() === name) && u.password === body.password);
      if (!user) return errorResponse(401, 'BAD_CREDENTIALS', 'The username or password is not correct');
      if (user.disabled) return errorResponse(401, 'USER_DISABLED', 'This account is disabled. Ask your administrator to enable it.');
      return HttpResponse.json({ jwt: mockToken(user.username, 3600, Date.now(), user.sessionVersion) });
    }),

    http.get('/auth/renew', ({ request }) => {
      const user = callerOf(db, request);
      return user ? HttpResponse.json({ jwt: mockToken(user.username, 3600, Date.now(), user.sessionVersion) }) : unauthorizedResponse();
    }),

    http.get('/user', ({ request }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      const reseller = db.resellers.find((r) => r.id === user.resellerId);
      const resellerName = reseller?.name ?? '';
      // The server's fallbacks: the user name for a missing e-mail, the reseller's name for a missing first name.
      return HttpResponse.json({
        id: user.id,
        username: user.username,
        email: user.email ?? user.username,
        firstName: user.firstName ?? resellerName,
        lastName: user.lastName,
        accountId: user.accountId,
        resellerInfo: { id: user.resellerId, name: resellerName, accentColorHex: reseller?.accentColorHex ?? null, formStyles: null },
        preferences: user.preferences,
      });
    }),

    http.post('/user/preferences', async ({ request }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      const body = (await request.json()) as { preferences?: unknown };
      if (typeof body.preferences !== 'string') {
        return errorResponse(400, 'VALIDATION', 'preferences must be JSON text');
      }
      user.preferences = body.preferences;
      return new HttpResponse(null, { status: 204 });
    }),

    http.get('/user/ui-privileges', ({ request }) => {
      const user = callerOf(db, request);
      return user ? HttpResponse.json({ userPrivileges: user.privileges }) : unauthorizedResponse();
    }),

    // The mock keeps its rows in memory, as the embedded engine does.
    http.get('/version', () => HttpResponse.json({ name: 'connectivity-portal', version: 'mock', engine: 'pglite' })),

    // The server's seeded reference rates.
    http.get('/exchange-rates', ({ request }) =>
      callerOf(db, request)
        ? HttpResponse.json({
            base: 'USD',
            rates: Object.entries({ BTC: 0.0000159, EUR: 0.9334, ILS: 3.7645, JPY: 161.48, RUB: 87.79 }).map(([currency, rate]) => ({
              currency,
              rate,
              asOf: '2024-07-01',
            })),
          })
        : unauthorizedResponse(),
    ),

    // The plans of the caller's subtree, as the portal names them across screens (each one the caller's to give).
    http.get('/pricing-plans/', ({ request }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      const visible = visibleResellerIds(db, user);
      const plans = (table: string) => (db.tables[table] ?? []).filter((p) => visible.has(p.resellerId as number));
      return HttpResponse.json({
        pricingPlans: plans('pricingPlan').map((p) => ({ pricingPlanId: Number(p.id), pricingPlanName: String(p.name), assignable: true })),
        internationalPricingPlans: plans('internationalPlan').map((p) => ({
          internationalPricingPlanId: Number(p.id),
          internationalPricingPlanName: String(p.name),
        })),
      });
    }),

    http.get('/reseller-info/list', ({ request }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      const visible = visibleResellerIds(db, user);
      return HttpResponse.json(db.resellers.filter((r) => visible.has(r.id)).map(({ id, name, parentId }) => ({ id, name, parentId })));
    }),
  ];
}
