import type {
  AliasNode,
  DeleteQueryNode,
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  InsertQueryNode,
  TableNode,
  UnknownRow,
  UpdateQueryNode,
} from 'kysely';

/** A table's name as both spellings compare: `app_user` and `appUser` are `appuser`. */
const plain = (name: string) => name.replace(/_/g, '').toLowerCase();

function tableOf(node: OperationNode | undefined): string | undefined {
  if (node?.kind === 'AliasNode') return tableOf((node as AliasNode).node);
  if (node?.kind === 'TableNode') return plain((node as TableNode).table.identifier.name);
  return undefined;
}

/** The tables an INSERT, UPDATE or DELETE writes; none for any other statement. */
function writtenTables(node: RootOperationNode): (string | undefined)[] {
  if (node.kind === 'InsertQueryNode') return [tableOf((node as InsertQueryNode).into)];
  if (node.kind === 'UpdateQueryNode') return [tableOf((node as UpdateQueryNode).table)];
  if (node.kind === 'DeleteQueryNode') return (node as DeleteQueryNode).from.froms.map(tableOf);
  return [];
}

/**
 * Calls back after each INSERT, UPDATE or DELETE this process runs on a watched table, once the statement has run: what the
 * process keeps about those rows is dropped before it answers the request that changed them.
 */
export class TableWritesPlugin implements KyselyPlugin {
  private readonly watchers: { tables: Set<string>; changed: () => void }[] = [];
  private readonly pending = new WeakMap<QueryId, (() => void)[]>();

  watch(tables: string[], changed: () => void) {
    this.watchers.push({ tables: new Set(tables.map(plain)), changed });
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (!this.watchers.length) return node;
    const tables = writtenTables(node);
    const called = this.watchers.filter((w) => tables.some((t) => t !== undefined && w.tables.has(t))).map((w) => w.changed);
    if (called.length) this.pending.set(queryId, called);
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const changed of this.pending.get(queryId) ?? []) changed();
    return result;
  }
}
