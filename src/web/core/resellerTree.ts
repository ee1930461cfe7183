/**
 * The reseller tree as the web app knows it: the resellers the user sees, each with its parent (the reseller list's
 * `parentId`). Pickers use it to offer only what the server takes along the tree.
 */

/** A reseller among the user's: its id (`value`, as select options carry it) and its parent's. */
export interface TreeNode {
  value: string | number;
  parentId?: number | null;
}

/** `root` and every reseller below it among `resellers`, as text ids. */
export function subtreeOf(resellers: readonly TreeNode[], root: unknown): Set<string> {
  const below = new Set<string>();
  if (root === undefined || root === null || root === '') return below;
  below.add(String(root));
  for (let grew = true; grew;) {
    grew = false;
    for (const r of resellers)
      if (r.parentId != null && below.has(String(r.parentId)) && !below.has(String(r.value))) {
        below.add(String(r.value));
        grew = true;
      }
  }
  return below;
}

/** `from` and the resellers above it, as far as `resellers` reach (their last parent included). */
export function chainOf(resellers: readonly TreeNode[], from: number | undefined): Set<number> {
  const chain = new Set<number>();
  for (let at = from; at !== undefined && !chain.has(at);) {
    chain.add(at);
    const parent = resellers.find((r) => Number(r.value) === at)?.parentId;
    at = parent == null ? undefined : parent;
  }
  return chain;
}
