import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Tokens } from '../domains/auth/tokens';
import { forbidden, unauthorized } from './errors';
import { can, type Caller, type Principals } from './principal';
import { resellerUser } from './tenancy';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a token (sign-in, version, public join and reset calls). */
    public?: boolean;
    /** The privilege the caller's role must grant; with a list, any one of them. */
    privilege?: string | string[];
    /** Only the administrator (reseller -1). */
    adminOnly?: boolean;
    /** Not an account's user (403): the call writes its reseller's own business, which the reseller's users run. */
    resellerOnly?: boolean;
    /** Any signed-in user (their own profile, session and preferences). */
    signedIn?: boolean;
  }
  interface FastifyRequest {
    principal?: Caller;
  }
  interface FastifyInstance {
    /** Every API route with what it requires, for the access tests and the route count. */
    portalRoutes: PortalRoute[];
    /** Issues and verifies session tokens, for the routes that hand out a new one (sign-in, renewal, password change). */
    tokens: Tokens;
  }
}

export interface PortalRoute {
  method: string;
  url: string;
  access: 'public' | 'signedIn' | 'admin' | 'privilege';
  privileges: string[];
}

/** The caller of a guarded route; the guard has already refused anyone else. */
export function principalOf(request: FastifyRequest): Caller {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

/**
 * One hook guards every API route: a valid bearer token of the user's current session version, for a user who
 * exists and is not disabled (401 otherwise), then the route's privilege and admin requirement (403). Routes opt
 * out only by declaring themselves public.
 */
export function registerGuard(app: FastifyInstance, principals: Principals, tokens: Tokens) {
  app.decorate('portalRoutes', [] as PortalRoute[]);
  app.decorate('tokens', tokens);
  // A route must say who may call it: one that does not is a mistake, and the server refuses to start.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/portal') || route.method === 'HEAD') return;
    const c = route.config ?? {};
    const privileges = c.privilege === undefined ? [] : [c.privilege].flat();
    const access = c.public ? 'public' : c.adminOnly ? 'admin' : privileges.length ? 'privilege' : c.signedIn ? 'signedIn' : undefined;
    if (!access) throw new Error(`${String(route.method)} ${route.url} declares no access rule (public, signedIn, adminOnly or privilege)`);
    for (const method of [route.method].flat()) app.portalRoutes.push({ method, url: route.url, access, privileges });
  });
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/portal')) return;
    const config = request.routeOptions.config;
    if (config?.public || !request.routeOptions.url) return;
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const session = token ? await tokens.verify(token) : undefined;
    const principal = session ? await principals.load(session.userId) : undefined;
    // A token issued before the user's password, role or disabled flag last changed no longer stands for anyone.
    if (!principal || principal.disabled || principal.sessionVersion !== session!.sessionVersion) throw unauthorized();
    request.principal = principal;
    if (config?.adminOnly && !principal.isAdmin) throw forbidden();
    if (config?.resellerOnly) resellerUser(principal);
    const needed = config?.privilege === undefined ? [] : [config.privilege].flat();
    if (needed.length && !needed.some((p) => can(principal, p))) throw forbidden();
  });
}
