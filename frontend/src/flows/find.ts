// Ctrl+K: find a node by its id, label, type name (in the author's language) or any config value.
import type { FlowDocument, FlowNode } from './document';

function values(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'object') return Object.values(value as object).flatMap(values);
  return [String(value)];
}

export function findNodes(doc: FlowDocument, query: string, typeName: (type: string) => string): FlowNode[] {
  const wanted = query.trim().toLocaleLowerCase();
  if (!wanted) return [];
  return doc.nodes.filter((node) =>
    [node.id, node.label ?? '', node.type, typeName(node.type), ...values(node.config)].some((text) =>
      text.toLocaleLowerCase().includes(wanted),
    ),
  );
}
