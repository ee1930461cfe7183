/**
 * Choices for reference fields (`x-reference`), e.g. the reseller of an account. Resellers come from the
 * reseller list call, plans from the plan lists; any other entity from its own schema's `list` call.
 */
import { apiRoute } from '@shared/schema';
import type { ResellerListItem } from '@web/core/userTypes';
import { api } from '@web/core/api';
import { apiPath } from '@web/core/config';
import { isPlanReference, planOptions, type PricingPlanLists } from '@web/core/pricingPlansApi';
import { findSchema } from '@web/core/schemas';
import type { EntityRow, SelectOption } from '@web/core/types';

export type ReferenceOptions = Record<string, SelectOption[]>;

function labelOf(row: EntityRow, key: string): string {
  const name = row.name ?? row[`${key.replace(/Id$/, '')}Name`];
  return typeof name === 'string' && name ? name : String(row[key]);
}

function asValue(value: unknown): string | number {
  return typeof value === 'number' ? value : String(value);
}

export const referenceApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Not generated: one query gathering the option lists a form's references name, over several operations.
    referenceOptions: build.query<ReferenceOptions, string[]>({
      async queryFn(references, _api, _extra, baseQuery) {
        const options: ReferenceOptions = {};
        for (const reference of references) {
          if (reference === 'reseller') {
            const result = await baseQuery('/reseller-info/list');
            if (result.error) return { error: result.error };
            options.reseller = (result.data as ResellerListItem[]).map((r) => ({ value: r.id, label: r.name, parentId: r.parentId ?? null }));
            continue;
          }
          if (isPlanReference(reference)) {
            const result = await baseQuery('/pricing-plans/');
            if (result.error) return { error: result.error };
            options[reference] = planOptions(result.data as PricingPlanLists, reference);
            continue;
          }
          const schema = findSchema(reference);
          const list = schema && apiRoute(schema, 'list');
          if (!schema || !list) continue;
          const result = await baseQuery(apiPath(list.path));
          if (result.error) return { error: result.error };
          const key = schema['x-entity'].key;
          options[reference] = (result.data as EntityRow[]).map((row) => ({
            value: asValue(row[key]),
            label: labelOf(row, key),
            ...(typeof row.resellerId === 'number' ? { resellerId: row.resellerId } : {}),
          }));
        }
        return { data: options };
      },
      providesTags: (_result, _error, references) => ['ResellerList', ...references.map((type) => ({ type, id: 'LIST' }))],
    }),
  }),
});

export const { useReferenceOptionsQuery } = referenceApi;
