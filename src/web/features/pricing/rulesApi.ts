/**
 * The calls of a plan's rules: a page, one rule, the grid's batch save, rule files (check, apply, download) and
 * the network catalogue the network picker reads. Rules are cached under their plan's tag, id `rules-<plan>`.
 */
import type { RuleChanges } from '@shared/ruleChanges';
import type { ListRequest, Page } from '@shared/wire';
import { api } from '@web/core/api';
import { answering } from '@web/core/generatedApi';
import { saveAttachment } from '@web/core/endpoints';
import type { EntityRow } from '@web/core/types';
import { RULE_KINDS, type RuleKindName } from './ruleKinds';
import { enhancedApi } from './rulesApi.gen';

/** Which rules: the kind by name (query arguments stay plain data) and the plan. */
export interface RulesArgs {
  kind: RuleKindName;
  planId: string;
}

const pathOf = ({ kind, planId }: RulesArgs) => RULE_KINDS[kind].rulesPath(planId);

export interface BatchSave {
  save: EntityRow[];
  delete: number[];
}

export interface RejectedLine {
  line: number;
  values: Record<string, string>;
  fields: { field: string; rule: string; messageId: string; message: string }[];
}

/** The answer to a rule file: every line counted, the rejected ones with their reasons, and how many were applied. */
export interface RuleFileReport {
  total: number;
  valid: number;
  rejected: RejectedLine[];
  applied: number;
  /** What applying the valid lines would change (a check's answer only). */
  changes?: RuleChanges;
}

export interface Network {
  id: number;
  plmn: string;
  mcc: string;
  mnc: string;
  country: string;
  operator: string;
  brand: string | null;
}

const rulesTag = ({ kind, planId }: RulesArgs) => ({ type: RULE_KINDS[kind].planTag, id: `rules-${planId}` });

// Not generated: each rule call below serves both plan kinds (local and international), whose paths differ; the
// document does not describe the bodies of the page, rule save and file calls, and the page is a read sent as POST.
export const rulesApi = api.injectEndpoints({
  endpoints: (build) => ({
    planRulesPage: build.query<Page<EntityRow>, RulesArgs & { request: ListRequest }>({
      query: ({ request, ...args }) => ({ url: `${pathOf(args)}/paged`, method: 'POST', body: request }),
      providesTags: (_page, _error, args) => [rulesTag(args)],
    }),
    planRule: build.query<EntityRow, RulesArgs & { ruleId: string }>({
      query: ({ ruleId, ...args }) => `${pathOf(args)}/${encodeURIComponent(ruleId)}`,
      providesTags: (_rule, _error, args) => [rulesTag(args)],
    }),
    savePlanRule: build.mutation<EntityRow, RulesArgs & { ruleId?: string; rule: EntityRow }>({
      query: ({ ruleId, rule, ...args }) => ({
        url: ruleId ? `${pathOf(args)}/${encodeURIComponent(ruleId)}` : pathOf(args),
        method: 'POST',
        body: rule,
      }),
      invalidatesTags: (_rule, _error, args) => [rulesTag(args)],
    }),
    savePlanRules: build.mutation<{ saved: number[]; deleted: number[] }, RulesArgs & { batch: BatchSave }>({
      query: ({ batch, ...args }) => ({ url: `${pathOf(args)}/batch`, method: 'POST', body: batch }),
      invalidatesTags: (_result, _error, args) => [rulesTag(args)],
    }),
    /** Checks a rule file (nothing written), or with `confirm` replaces the plan's rules with its valid lines. */
    sendRuleFile: build.mutation<RuleFileReport, RulesArgs & { file: File; confirm: boolean }>({
      query: ({ planId, file, confirm }) => {
        const body = new FormData();
        body.append('pricingPlanFile', file);
        return { url: `/pricing-plans/local/${encodeURIComponent(planId)}/by-csv`, method: 'POST', body, params: confirm ? { confirm: 'true' } : undefined };
      },
      invalidatesTags: (_result, _error, args) => (args.confirm ? [rulesTag(args)] : []),
    }),
    // Not generated: a streamed CSV saved as a file, which the document cannot describe.
    downloadRules: build.mutation<string, { planId: string }>({
      query: ({ planId }) => ({ url: `/pricing-plans/local/${encodeURIComponent(planId)}/download`, method: 'POST', responseHandler: saveAttachment }),
    }),
  }),
});

export const { usePlanRulesPageQuery, usePlanRuleQuery, useSavePlanRuleMutation, useSavePlanRulesMutation, useSendRuleFileMutation, useDownloadRulesMutation } =
  rulesApi;

/** The network catalogue the network picker reads, as a plain list. */
export const networksApi = answering<{ getNetworks: Network[] }>()(
  enhancedApi.enhanceEndpoints({
    endpoints: { getNetworks: { providesTags: [], transformResponse: (page: Page<Network>) => page.items } },
  }),
);

export const { useGetNetworksQuery } = networksApi;
