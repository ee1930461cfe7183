/** Labs switches per tenant, kept per mock database, with the server's rule (src/shared/labs.ts) and refusals. */
import { HttpResponse } from 'msw';
import { effectiveLab, isLabKey, LABS, type LabKey, type TenantLabs } from '@shared/labs';
import { hasPrivilege } from '@shared/privileges';
import type { MockDatabase, MockUser } from './data';
import { errorResponse, fieldError, forbiddenResponse, messageText, unauthorizedResponse } from './http';
import { callerOf, isAdmin } from './session';
import { openApiHttp } from './openapiHttp';

interface Switch {
  enabled: boolean;
  updatedBy: string;
  updatedAt: string;
}

const switchesOf = new WeakMap<MockDatabase, Map<string, Switch>>();

/** The switches of a mock database by `resellerId/lab`; tests may set some before rendering. */
export function labSwitches(db: MockDatabase) {
  let map = switchesOf.get(db);
  if (!map) switchesOf.set(db, (map = new Map()));
  return map;
}

/** The resellers from the provider down to `resellerId`. */
function pathOf(db: MockDatabase, resellerId: number): number[] {
  const path: number[] = [];
  for (let id: number | null = resellerId; id !== null; id = db.resellers.find((r) => r.id === id)?.parentId ?? null) path.unshift(id);
  return path;
}

function tenantLabs(db: MockDatabase, resellerId: number): TenantLabs {
  const path = pathOf(db, resellerId);
  const all = labSwitches(db);
  return {
    resellerId,
    labs: LABS.map((lab) => {
      const switches = new Map(path.flatMap((id) => (all.has(`${id}/${lab.key}`) ? [[id, all.get(`${id}/${lab.key}`)!.enabled] as const] : [])));
      const own = all.get(`${resellerId}/${lab.key}`);
      return {
        key: lab.key,
        ...effectiveLab(lab, path, switches),
        default: lab.defaultEnabled,
        own: own?.enabled ?? null,
        updatedBy: own?.updatedBy ?? null,
        updatedAt: own?.updatedAt ?? null,
      };
    }),
  };
}

/** The tenant a call names: the caller's own, or for the administrator any reseller. */
function tenantOf(db: MockDatabase, user: MockUser, resellerId: number | undefined): number | Response {
  if (resellerId === undefined || resellerId === user.resellerId) return user.resellerId;
  if (!isAdmin(user)) return forbiddenResponse();
  if (!db.resellers.some((r) => r.id === resellerId))
    return errorResponse(400, 'VALIDATION_FAILED', messageText('error.validation'), [fieldError('resellerId', 'reference', 'validation.reference.unknown')]);
  return resellerId;
}

export function labsHandlers(db: MockDatabase, base: string) {
  const http = openApiHttp(base);
  return [
    http.get('/labs', ({ request }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      const asked = new URL(request.url).searchParams.get('resellerId');
      const tenant = tenantOf(db, user, asked === null ? undefined : Number(asked));
      return typeof tenant === 'number' ? HttpResponse.json(tenantLabs(db, tenant)) : tenant;
    }),

    http.put('/labs/{lab}', async ({ request, params }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      if (!hasPrivilege(user.privileges, 'Labs')) return forbiddenResponse();
      const lab = params.lab;
      if (!isLabKey(lab))
        return errorResponse(400, 'VALIDATION_FAILED', messageText('error.validation'), [fieldError('lab', 'enum', 'validation.lab.unknown')]);
      const body = (await request.json()) as { enabled?: unknown; resellerId?: number };
      if (typeof body.enabled !== 'boolean')
        return errorResponse(400, 'VALIDATION_FAILED', messageText('error.validation'), [fieldError('enabled', 'type', 'validation.invalid')]);
      const tenant = tenantOf(db, user, body.resellerId);
      if (typeof tenant !== 'number') return tenant;
      if (tenant === -1 && !isAdmin(user)) return forbiddenResponse();
      if (body.enabled && tenantLabs(db, tenant).labs.find((l) => l.key === lab)!.locked)
        return errorResponse(409, 'LAB_LOCKED', `${messageText('error.labLocked')} (${lab})`, [fieldError('lab', 'locked', 'error.labLocked')]);
      labSwitches(db).set(`${tenant}/${lab satisfies LabKey}`, { enabled: body.enabled, updatedBy: user.username, updatedAt: new Date().toISOString() });
      return HttpResponse.json(tenantLabs(db, tenant));
    }),
  ];
}
