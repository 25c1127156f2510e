/**
 * The worker's house rules (docs/architecture.md#the-house-in-one-picture), read from the import
 * graph: hubs never import a wing; no folder of `worker/` reaches itself again through others; a
 * wing imports another wing only where that one-way use is declared here with its reason, and
 * otherwise hears of what happened through the facts (`worker/facts.ts`) that `worker/announce.ts`
 * hands to the listeners.
 */

/** What these rules read of the import graph (tools/architecture.ts `ImportGraph`). */
export type Graph = Map<string, readonly { target: string; lazy: boolean }[]>;

/**
 * The worker's hubs: what every subsystem may use, so none of them may import a subsystem ("wing":
 * any other folder of `worker/`). `facts.ts` names what happened and imports only `shared/`;
 * `sign-in/` (who may call the operators' API), `reliability/` (budgets, losses), `config/` (the
 * operator's configuration) and `apps/` (which app a request is for) serve every wing.
 */
export const HUBS = [
  'worker/lib/',
  'worker/kv/',
  'worker/middleware/',
  'worker/settings.ts',
  'worker/facts.ts',
  'worker/sign-in/',
  'worker/reliability/',
  'worker/config/',
  'worker/apps/',
];

/**
 * The composers, which only wire wings together: `index.ts` their routes, `queues.ts` their queues'
 * batches, `announce.ts` a fact to its listeners, `commit-change.ts` an operator's change to the
 * audit log. `env.ts` names the per-request types every wing and
 * hub reads. `index.ts` and `env.ts` stand aside from the folder graph: nothing imports the entry, and
 * the types are gone at run time; `queues.ts` and `announce.ts` are nodes of it, so a listener that
 * imports its producer closes a cycle.
 */
export const COMPOSERS = ['worker/index.ts', 'worker/queues.ts', 'worker/announce.ts', 'worker/commit-change.ts'];
const ASIDE = ['worker/index.ts', 'worker/env.ts'];

/**
 * The one-way uses of a wing by another, each with why; any other arrow between wings is a break.
 * A use is data or a schema the other wing owns, never something that happened (that is a fact).
 */
export const WING_USES: Record<string, { uses: string[]; why: string }> = {
  render: {
    uses: ['apk', 'app-links', 'attribution', 'builds', 'campaign', 'rules', 'variants'],
    why: "the page is made of each wing's part of the hand-off; a short link's rules decide before it whether it is served",
  },
  openapi: {
    uses: [
      'attribution',
      'audit',
      'campaign',
      'conversions',
      'fraud',
      'funnel',
      'rules',
      'store-postbacks',
      'webhooks',
    ],
    why: "the document is generated from each wing's own schemas",
  },
  exports: {
    uses: ['audit', 'fraud', 'funnel', 'webhooks'],
    why: "the daily run signs the audit log's head, forgets fraud's old rows, exports the events and writes the funnel's cohort tables as Parquet",
  },
  apk: { uses: ['attribution'], why: "a stamped APK carries the tap's carrier" },
  attribution: {
    uses: ['campaign', 'fraud'],
    why: "a carrier and an answer read the signed campaign token; an app's invite link is a short link naming the user identify() named (its keyed hash)",
  },
  identity: { uses: ['campaign'], why: "the trace reads the page's campaign token" },
  privacy: {
    uses: ['attribution', 'audit', 'fraud', 'webhooks'],
    why: "a subject's keyed hashes are made by the functions that wrote them, and erased or read in each wing's own stores; receipts are signed as the audit log's heads are; callbacks are delivered as webhooks",
  },
  fraud: { uses: ['funnel'], why: "the fraud report reads the funnel's figures and dimension columns" },
  variants: {
    uses: ['campaign', 'funnel'],
    why: "a link's variants are kept on the stored link; its experiment reads the funnel's counts per variant",
  },
  conversions: {
    uses: ['webhooks'],
    why: "a postback's URL is checked as an endpoint's is, a delivery is retried on the webhooks' schedule, and an install is named by the webhooks' install hash",
  },
  campaign: {
    uses: ['rules'],
    why: "a short link's rules are compiled, and refused with their place, when it is written",
  },
};

const isHub = (file: string): boolean => HUBS.some((hub) => file.startsWith(hub));

/** The wing a file of the worker is in (`funnel` for `worker/funnel/…`), or null for a hub or a root file. */
export function wingOf(file: string): string | null {
  const folder = /^worker\/([^/]+)\//.exec(file)?.[1];
  return folder === undefined || isHub(file) ? null : folder;
}

/** The node of the folder graph a worker file is in: its folder, or the file itself at the root. */
function nodeOf(file: string): string | null {
  if (!file.startsWith('worker/') || ASIDE.includes(file)) return null;
  const folder = /^worker\/[^/]+\//.exec(file)?.[0];
  return folder ?? file;
}

/** Imports from a hub of the worker into a wing, as `from → to`. */
export function hubBreaks(graph: Graph): string[] {
  const breaks: string[] = [];
  for (const [file, imports] of graph) {
    if (ASIDE.includes(file) || !isHub(file)) continue;
    for (const { target } of imports) if (wingOf(target) !== null) breaks.push(`${file} → ${target}`);
  }
  return breaks.sort();
}

/** The static imports between the worker's folders (and root modules), each folder to the folders it imports. */
export function folderGraph(graph: Graph): Map<string, Set<string>> {
  const folders = new Map<string, Set<string>>();
  for (const [file, imports] of graph) {
    const from = nodeOf(file);
    if (from === null) continue;
    const to = folders.get(from) ?? new Set<string>();
    folders.set(from, to);
    for (const { target, lazy } of imports) {
      const node = nodeOf(target);
      if (!lazy && node !== null && node !== from) to.add(node);
    }
  }
  return folders;
}

/**
 * Every strongly connected group of the worker's folders (Tarjan): folders that reach each other
 * through their imports, each as a cycle through them, sorted. None is the target.
 */
export function folderCycles(graph: Graph): string[][] {
  const folders = folderGraph(graph);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    for (const next of [...(folders.get(node) ?? [])].sort()) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      group.push(member);
      if (member === node) break;
    }
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of [...folders.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** The wings that import each other, each pair once as `a ⇄ b`. None is the target. */
export function mutualWings(graph: Graph): string[] {
  const arrows = new Set<string>();
  for (const [file, imports] of graph) {
    const from = wingOf(file);
    for (const { target } of imports) {
      const to = wingOf(target);
      if (from !== null && to !== null && to !== from) arrows.add(`${from} ${to}`);
    }
  }
  const pairs: string[] = [];
  for (const arrow of arrows) {
    const [from = '', to = ''] = arrow.split(' ');
    if (from < to && arrows.has(`${to} ${from}`)) pairs.push(`${from} ⇄ ${to}`);
  }
  return pairs.sort();
}

/** Imports from a wing into another wing that no `WING_USES` entry declares, as `from → to`. */
export function wingBreaks(graph: Graph, uses: Record<string, { uses: string[] }> = WING_USES): string[] {
  const breaks: string[] = [];
  for (const [file, imports] of graph) {
    const from = wingOf(file);
    if (from === null) continue;
    for (const { target } of imports) {
      const to = wingOf(target);
      if (to !== null && to !== from && !uses[from]?.uses.includes(to)) breaks.push(`${file} → ${target}`);
    }
  }
  return breaks.sort();
}
