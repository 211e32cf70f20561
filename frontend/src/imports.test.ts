// No import circle between the editor's files, as none between the backend's (tests/test_imports.py): a
// file that needs a name of one importing it back takes that name from a third, smaller file (as
// canvas/place.ts holds dagre's placing for layout.ts and laneLayout.ts). The graph is read from the
// sources' static imports and re-exports; `import type` counts too (a type-only circle is still a knot a
// reader must untie), dynamic `import()` does not (it loads later, on purpose).
import { describe, expect, it } from 'vitest';

const SOURCES = import.meta.glob(['./**/*.{ts,tsx}', '!./**/*.test.ts', '!./api/schema.d.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

const FROM = /^\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'/gms;

/** The file a relative import names, among the sources (`./a` is `./a.ts` or `./a.tsx` or `./a/index.ts`). */
function resolve(from: string, spec: string, files: Set<string>): string | null {
  const parts = from.split('/').slice(0, -1);
  for (const piece of spec.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.') parts.push(piece);
  }
  const base = parts.join('/');
  for (const name of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`])
    if (files.has(name)) return name;
  return null;
}

function importGraph(sources: Record<string, string>): Map<string, string[]> {
  const files = new Set(Object.keys(sources));
  const graph = new Map<string, string[]>();
  for (const [file, text] of Object.entries(sources)) {
    const targets = [...text.matchAll(FROM)].map((m) => resolve(file, m[1] as string, files));
    graph.set(file, [...new Set(targets.filter((t): t is string => t !== null))]);
  }
  return graph;
}

/** Every file `from` leads to through its imports, one step or more. */
function reached(graph: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [...(graph.get(from) ?? [])];
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    todo.push(...(graph.get(file) ?? []));
  }
  return seen;
}

/** The groups of two or more files that import each other round: each leads to every other. */
function circles(graph: Map<string, string[]>): string[][] {
  const reach = new Map([...graph.keys()].map((file) => [file, reached(graph, file)]));
  const groups = new Map<string, string[]>();
  for (const [file, leads] of reach) {
    const round = [...leads].filter((other) => other !== file && reach.get(other)?.has(file));
    if (round.length === 0) continue;
    const group = [file, ...round].sort();
    groups.set(group.join(' '), group);
  }
  return [...groups.values()].sort();
}

describe("the editor's import graph", () => {
  it('is read from the sources', () => {
    const graph = importGraph(SOURCES);
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('./canvas/layout.ts')).toEqual([
      './flows/document.ts',
      './canvas/laneLayout.ts',
      './canvas/place.ts',
      './canvas/cardSize.ts',
    ]);
  });

  it('finds a circle when there is one', () => {
    const sources = {
      './a.ts': "import { b } from './b';\nexport const a = 1;",
      './b.ts': "import type { A } from './c';\nexport const b = 2;",
      './c.ts': "export { a } from './a';\nexport type A = number;",
      './d.ts': "import { a } from './a';\nconst later = () => import('./d');",
    };
    expect(circles(importGraph(sources))).toEqual([['./a.ts', './b.ts', './c.ts']]);
  });

  it('has no circle', () => {
    expect(circles(importGraph(SOURCES))).toEqual([]);
  });
});
