/**
 * How a list screen opens: the state of its first page (the address's, else the user's saved sort) and the call
 * that reads it. The screen and whatever asks for the page before the screen is drawn (a page load, a menu entry
 * under the pointer) go through the same function, so they ask the API's cache for the same thing: one request,
 * one answer, which the screen finds there or on its way.
 */
import { customEntityOf, type CustomFieldDefinition } from '@shared/customFields';
import type { EntitySchema } from '@shared/schema';
import { enhancedApi as customFieldsApi } from '@web/core/customFieldsApi.gen';
import { entityEndpoints } from '@web/core/endpoints';
import type { AppDispatch } from '@web/core/rootReducer';
import { readGridLayout, type GridLayout } from './gridPreferences';
import { readListQuery, toListRequest, type ListQuery } from './listQuery';

/** The list's state: the address's, with the user's saved sort when the address names none. */
export function openingQuery(
  schema: EntitySchema,
  params: URLSearchParams,
  isAdmin: boolean,
  layout: GridLayout | undefined,
  custom?: readonly CustomFieldDefinition[],
): ListQuery {
  return { ...readListQuery(params, schema, isAdmin, custom), ...(!params.has('sortBy') && layout?.sort ? layout.sort : {}) };
}

/** Reads a page through `search` when there is a search key and the schema has that call, else `paged`. */
export function pageEndpoint(schema: EntitySchema, query: Pick<ListQuery, 'searchKey'>) {
  const { paged, search } = entityEndpoints(schema);
  return query.searchKey && search ? search : paged;
}

export interface ListOpening {
  /** The list's part of the address (`searchKey`, `page`, `sortBy`…). */
  params: URLSearchParams;
  isAdmin: boolean;
  /** The profile's preferences, where the list's saved sort is. */
  preferences: string | null | undefined;
}

/**
 * Asks for what the list screen will ask for as it opens, before it is drawn: its custom fields and its first page,
 * into the API's cache. A failure is left to the screen's own call, which reports it.
 */
export function prefetchListPage(dispatch: AppDispatch, schema: EntitySchema, { params, isAdmin, preferences }: ListOpening): void {
  const entity = customEntityOf(schema);
  if (entity) dispatch(customFieldsApi.endpoints.getCustomFieldsApplicableByEntity.initiate(entity, { subscribe: false }));
  const query = openingQuery(schema, params, isAdmin, readGridLayout(preferences, schema['x-entity'].name));
  const endpoint = pageEndpoint(schema, query);
  if (endpoint) dispatch(endpoint.initiate(toListRequest(query, schema), { subscribe: false }));
}
