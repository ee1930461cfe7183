/**
 * Payments in memory (`tables.payment`, empty unless a test puts rows there): a reseller's and an account's payment
 * pages, filtered by method and status, newest first, as the server pages them.
 */
import { HttpResponse, type HttpHandler } from 'msw';
import { hasPrivilege } from '@shared/privileges';
import type { MockDatabase, MockUser, Row } from './data';
import { forbiddenResponse, notFoundResponse, unauthorizedResponse } from './http';
import { callerOf, visibleResellerIds } from './session';
import { openApiHttp } from './openapiHttp';

interface PageBody {
  method?: string;
  status?: string;
  page?: { page?: number; size?: number } | null;
}

export function paymentHandlers(db: MockDatabase, base: string): HttpHandler[] {
  const http = openApiHttp(base);
  const caller = (request: Request, privileges: string[]): MockUser | Response => {
    const user = callerOf(db, request);
    if (!user) return unauthorizedResponse();
    if (!privileges.some((p) => hasPrivilege(user.privileges, p))) return forbiddenResponse();
    return user;
  };
  /** The rows `keep` picks, filtered and paged as the server does (newest first). */
  const page = (keep: (p: Row) => boolean, body: PageBody) => {
    const rows = (db.tables.payment ?? [])
      .filter((p) => keep(p) && (!body.method || p.method === body.method) && (!body.status || p.status === body.status))
      .sort((a, b) => String(b.date).localeCompare(String(a.date)));
    const size = body.page?.size ?? 10;
    const current = body.page?.page ?? 0;
    return {
      items: rows.slice(current * size, (current + 1) * size) as never[],
      totalItemsCount: rows.length,
      totalPageCount: Math.max(1, Math.ceil(rows.length / size)),
      currentPage: current,
    };
  };
  return [
    http.post('/payments/paged', async ({ request }) => {
      const user = caller(request, ['PaymentMethods']);
      if (user instanceof Response) return user;
      const body = (await request.json()) as PageBody & { resellerId?: number };
      const resellerId = body.resellerId ?? user.resellerId;
      if (!visibleResellerIds(db, user).has(resellerId)) return notFoundResponse();
      return HttpResponse.json(page((p) => p.resellerId === resellerId && (user.accountId == null || p.accountId === user.accountId), body));
    }),
    http.post('/accounts/{id}/payments/paged', async ({ request, params }) => {
      const user = caller(request, ['PaymentMethods', 'Accounts']);
      if (user instanceof Response) return user;
      const account = (db.tables.account ?? []).find((a) => a.accountId === Number(params.id) && visibleResellerIds(db, user).has(Number(a.resellerId)));
      if (!account || (user.accountId != null && user.accountId !== account.accountId)) return notFoundResponse();
      return HttpResponse.json(page((p) => p.accountId === account.accountId, (await request.json()) as PageBody));
    }),
  ];
}
