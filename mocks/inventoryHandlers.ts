/**
 * Inventory in memory: ranges (`tables.inventoryRange`, none unless a test adds them), the MSISDN pool
 * (`tables.msisdnPool`, Northwind's Swedish numbers) and devices (none). Assigning from inventory is left to the
 * tests that need it, which answer it themselves.
 */
import { HttpResponse, type HttpHandler } from 'msw';
import { hasPrivilege } from '@shared/privileges';
import type { MockDatabase, MockUser, Row } from './data';
import { forbiddenResponse, unauthorizedResponse } from './http';
import { callerOf, visibleResellerIds } from './session';
import { openApiHttp } from './openapiHttp';

/** Northwind's (10) free numbers. */
export function seedMsisdnPool(db: MockDatabase) {
  db.tables.msisdnPool = Array.from({ length: 5 }, (_, i) => ({
    msisdn: `4670174060${5 + i}`,
    country: 'SE',
    supplierId: 1,
    supplierName: 'Telia Carrier Numbering',
    resellerId: 10,
    resellerName: 'Northwind Mobile',
    subscriberId: null,
    assigned: false,
  }));
}

const page = (items: Row[], at = 0, size = 50) => ({
  items: items.slice(at * size, at * size + size),
  totalItemsCount: items.length,
  totalPageCount: Math.max(1, Math.ceil(items.length / size)),
  currentPage: at,
});

export function inventoryHandlers(db: MockDatabase, base: string): HttpHandler[] {
  if (!db.tables.msisdnPool) seedMsisdnPool(db);
  const http = openApiHttp(base);
  const caller = (request: Request, privileges: string[]): MockUser | Response => {
    const user = callerOf(db, request);
    if (!user) return unauthorizedResponse();
    if (!privileges.some((p) => hasPrivilege(user.privileges, p))) return forbiddenResponse();
    return user;
  };
  const pool = (user: MockUser) => (db.tables.msisdnPool ?? []).filter((n) => visibleResellerIds(db, user).has(Number(n.resellerId)));
  return [
    http.get('/inventory/ranges', ({ request }) => {
      const user = caller(request, ['Inventory', 'MoveSubscribers']);
      if (user instanceof Response) return user;
      const ranges = (db.tables.inventoryRange ?? []).filter((r) => visibleResellerIds(db, user).has(Number(r.resellerId)));
      return HttpResponse.json({ ranges, stock: [] } as never);
    }),
    http.post('/inventory/msisdn-list', async ({ request }) => {
      const user = caller(request, ['Inventory', 'Subscribers']);
      if (user instanceof Response) return user;
      const body = (await request.json()) as Row;
      const items = pool(user).filter((n) => body.assigned == null || n.assigned === body.assigned);
      const at = (body.page as Row | undefined)?.page;
      const size = (body.page as Row | undefined)?.size;
      return HttpResponse.json(page(items, Number(at ?? 0), Number(size ?? 50)) as never);
    }),
    http.get('/inventory/msisdn-countries', ({ request }) => {
      const user = caller(request, ['Inventory', 'Subscribers']);
      if (user instanceof Response) return user;
      const numbers = pool(user);
      const countries = [...new Set(numbers.map((n) => String(n.country)))].sort();
      return HttpResponse.json(
        countries.map((country) => {
          const own = numbers.filter((n) => n.country === country);
          return { country, total: own.length, free: own.filter((n) => !n.assigned).length };
        }),
      );
    }),
    http.post('/inventory/devices', ({ request }) => {
      const user = caller(request, ['Inventory', 'Subscribers']);
      return user instanceof Response ? user : HttpResponse.json(page([]) as never);
    }),
    http.get('/inventory/devices/{id}/changes', ({ request }) => {
      const user = caller(request, ['Inventory', 'Subscribers']);
      return user instanceof Response ? user : HttpResponse.json([]);
    }),
  ];
}
