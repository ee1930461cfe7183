/**
 * What the command palette can jump to. Screens come from the side menu (granted and routed); entities come from
 * every schema with a `search` call and a detail route, so a new entity (subscribers, zones, plans) is found as
 * soon as its schema lands. Resellers come from the reseller list the session already loads.
 */
import { hasPrivilege, type PrivilegeItem } from '@shared/privileges';
import type { EntitySchema } from '@shared/schema';
import type { ListRequest, Page } from '@shared/wire';
import { api } from '@web/core/api';
import { apiPath } from '@web/core/config';
import { ENTITY_SCHEMAS, detailPath, entityName } from '@web/core/schemas';
import { rowName } from '@web/engine/pageTitle';
import type { EntityRow } from '@web/core/types';
import { apiRoute } from '@shared/schema';

export interface PaletteItem {
  /** Unique among the items shown. */
  key: string;
  /** A message id (screens) or plain text (entities). */
  label: string;
  translate: boolean;
  /** Message id of the kind: the menu entry or the entity's singular name. */
  kind: string;
  path: string;
}

/** How many matches each entity contributes. */
export const PALETTE_MATCHES = 5;

export function rowLabel(schema: EntitySchema, row: EntityRow): string {
  const key = row[schema['x-entity'].key];
  const name = rowName(row);
  return name ? `${name} · #${String(key)}` : `#${String(key)}`;
}

/** Entities the palette searches for this user: a search call, a detail route that exists, the privilege held. */
export function paletteSchemas(granted: PrivilegeItem[], isRouted: (path: string) => boolean): EntitySchema[] {
  return ENTITY_SCHEMAS.filter((s) => {
    const detail = detailPath(s, 1);
    return apiRoute(s, 'search') && detail && isRouted(detail) && hasPrivilege(granted, s['x-entity'].privilege);
  });
}

/** The first filter searches by id and name together where the schema has one ("multi"). */
function searchRequest(schema: EntitySchema, text: string): ListRequest {
  const filters = schema['x-list'].search;
  const by = (filters.find((f) => f.by === 'multi') ?? filters[0])?.by;
  return { searchKey: text, searchBy: by, page: { page: 0, size: PALETTE_MATCHES }, ...schema['x-list'].defaultSort };
}

export interface EntityMatches {
  entity: string;
  rows: EntityRow[];
}

const paletteApi = api.injectEndpoints({
  endpoints: (build) => ({
    paletteSearch: build.query<EntityMatches[], { text: string; entities: string[] }>({
      // One call per entity, side by side; an entity that fails (e.g. a privilege just revoked) adds nothing.
      async queryFn({ text, entities }, _api, _extra, baseQuery) {
        const schemas = ENTITY_SCHEMAS.filter((s) => entities.includes(entityName(s)));
        const results = await Promise.all(
          schemas.map(async (schema) => {
            const route = apiRoute(schema, 'search');
            if (!route) return { entity: entityName(schema), rows: [] };
            const hidden = schema['x-list'].hiddenUnless;
            const result = await baseQuery({
              url: apiPath(route.path),
              method: route.method,
              body: searchRequest(schema, text),
              params: hidden ? { [hidden.query]: 'true' } : undefined,
            });
            const rows = result.data ? ((result.data as Page<EntityRow>).items ?? []) : [];
            return { entity: entityName(schema), rows };
          }),
        );
        return { data: results };
      },
    }),
  }),
});

export const { usePaletteSearchQuery } = paletteApi;
