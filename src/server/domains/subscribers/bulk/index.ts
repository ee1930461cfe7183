/**
 * Changes of many subscribers at once: the actions a bulk job, a range change, a move and a CSV upload share.
 * Each action is resolved once (its parameters checked against what the caller may use), then checked per
 * subscriber (a reason when it cannot or need not change) and applied per subscriber with its audit entry.
 * Applying is idempotent: a subscriber already in the target state is left alone and gets no second entry.
 */
export { BULK_ACTIONS, Lookups, resolveAction, type BulkAction, type Resolved } from './resolve';
export { loadTargets, loadTargetsByKey, type Target } from './targets';
export { customUnchanged, detailsUnchanged, previewOf, reasonFor, refusal, UNCHANGED } from './reasons';
export { applyAction, applyActionToMany, type ApplyContext, type Applied } from './apply';
export { expireOperations, jobPrincipal, outcomesOf } from './job';
export { checkRange, rangeIds, RANGE_MAX, RANGE_TYPES, type Range, type RangeType } from './range';
