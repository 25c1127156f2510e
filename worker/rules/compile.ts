/**
 * Compiling a link's rules (docs/smart-links.md#compiling): each condition is parsed and type-checked
 * once, against the declared variables (variables.ts), with its cost bounded before it ever runs. A
 * rule that does not parse, names an unknown variable, is not a condition, costs more than the bound
 * or sends to a host off the app's allow list is refused with its place:
 * `rules[2].when: unknown variable "contry" at 1:1`.
 */
import { type ASTNode, Environment, ParseError } from '@marcbachmann/cel-js';
import { type Action, actionOf, type LinkRule as Rule } from '../../shared/link-rules.ts';
import { type RuleInput, VARIABLES, type VariableName } from './variables.ts';

/**
 * The parser's bounds (docs/smart-links.md#cost): a condition has at most 200 nodes, nests at most 16
 * deep, and its literal lists and maps hold at most 32 entries, so no comprehension runs more than
 * 32 (or the query's 20) times.
 */
export const LIMITS = { maxAstNodes: 200, maxDepth: 16, maxListElements: 32, maxMapEntries: 32, maxCallArguments: 4 };

/**
 * Dotted versions compared part by part as numbers (`"17.4.1".atLeast("17.2")`); an empty or
 * non-numeric version meets no bound.
 */
export function versionAtLeast(version: string, bound: string): boolean {
  const have = version.split('.').map(Number);
  const want = bound.split('.').map(Number);
  if (version === '' || have.some(Number.isNaN) || want.some(Number.isNaN)) return false;
  for (let i = 0; i < Math.max(have.length, want.length); i += 1) {
    const a = have[i] ?? 0;
    const b = want[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

// One environment per isolate: declaring it is the expensive part, parsing against it is cheap.
const environment = (() => {
  const env = new Environment({ limits: LIMITS });
  for (const { name, type } of VARIABLES) env.registerVariable(name, type);
  return env.registerFunction({
    name: 'atLeast',
    receiverType: 'string',
    returnType: 'bool',
    handler: versionAtLeast,
    params: [{ name: 'bound', type: 'string' }],
    description: 'dotted versions compared part by part as numbers',
  });
})();

/** Functions a condition may not call: `matches` runs a backtracking regular expression on the visitor's text. */
const REFUSED_FUNCTIONS: Record<string, string> = {
  matches:
    '"matches" is not offered: a regular expression on a visitor\'s text has no bounded cost; use startsWith, endsWith, contains or in',
};
/** The macros that loop over a list or map; one inside another would multiply their cost. */
const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

/** A test of one variable that, when it fails, makes the whole condition false: checked before CEL runs. */
export type Guard = (input: RuleInput) => boolean;

/** One compiled rule: its condition, ready to run, the guards that can rule it out first, and its action. */
export interface CompiledRule {
  /** Its place in the link's rules. */
  index: number;
  test: (input: object) => unknown;
  guards: readonly Guard[];
  action: Action;
}

/** A link's rules compiled, and the variables they read (what a kept page's key may grow by). */
export interface CompiledRules {
  rules: readonly CompiledRule[];
  reads: ReadonlySet<VariableName>;
}

export type Compiled = { ok: true; compiled: CompiledRules } | { ok: false; errors: string[] };

/** `line:column` (both from 1) of `offset` in `text`. */
export function positionOf(text: string, offset: number): string {
  const before = text.slice(0, Math.max(0, offset)).split('\n');
  return `${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
}

const KNOWN = new Set<string>(VARIABLES.map(({ name }) => name));

/** The children of an AST node, whatever its operator. */
function childrenOf(node: ASTNode): ASTNode[] {
  const children: ASTNode[] = [];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) collect(item);
    else if (value !== null && typeof value === 'object' && 'op' in value) children.push(value as ASTNode);
  };
  if (node.op !== 'value' && node.op !== 'id') collect(node.args);
  return children;
}

/**
 * What the cost check finds wrong with `ast` (a refused function or a comprehension inside another),
 * with its offset; and the variables it reads, put into `reads`.
 */
function inspect(ast: ASTNode, reads: Set<VariableName>): { message: string; at: number } | null {
  const walk = (node: ASTNode, looping: boolean): { message: string; at: number } | null => {
    if (node.op === 'id' && KNOWN.has(node.args)) reads.add(node.args as VariableName);
    let inLoop = looping;
    if (node.op === 'call' || node.op === 'rcall') {
      const name = node.args[0];
      const refused = REFUSED_FUNCTIONS[name];
      if (refused) return { message: refused, at: node.range.start };
      if (node.op === 'rcall' && COMPREHENSIONS.has(name) && node.args[2][0]?.op === 'id') {
        if (looping)
          return { message: `"${name}" inside another loop is refused: its cost multiplies`, at: node.range.start };
        inLoop = true;
      }
    }
    for (const child of childrenOf(node)) {
      const found = walk(child, inLoop);
      if (found) return found;
    }
    return null;
  };
  return walk(ast, false);
}

const STRING_VARIABLES = new Set<string>(VARIABLES.filter(({ type }) => type === 'string').map(({ name }) => name));
const BOOL_VARIABLES = new Set<string>(VARIABLES.filter(({ type }) => type === 'bool').map(({ name }) => name));
type StringVariable = { [K in keyof RuleInput]: RuleInput[K] extends string ? K : never }[keyof RuleInput];
type BoolVariable = { [K in keyof RuleInput]: RuleInput[K] extends boolean ? K : never }[keyof RuleInput];

const stringVariable = (node: ASTNode): StringVariable | null =>
  node.op === 'id' && STRING_VARIABLES.has(node.args) ? (node.args as StringVariable) : null;
const stringLiteral = (node: ASTNode): string | null =>
  node.op === 'value' && typeof node.args === 'string' ? node.args : null;

/** The time of `timestamp("…")` with a literal CEL takes (ISO 8601, 20 to 30 characters, years 1–9999), else null. */
function literalTime(node: ASTNode): number | null {
  if (node.op !== 'call' || node.args[0] !== 'timestamp' || node.args[1].length !== 1) return null;
  const text = node.args[1][0] && stringLiteral(node.args[1][0]);
  if (!text || text.length < 20 || text.length > 30) return null;
  const time = new Date(text).getTime();
  return time <= 253402300799999 && time >= -62135596800000 ? time : null;
}

const COMPARE = {
  '<': (a: number, b: number) => a < b,
  '<=': (a: number, b: number) => a <= b,
  '>': (a: number, b: number) => a > b,
  '>=': (a: number, b: number) => a >= b,
};
const MIRROR = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as const;

/** `now < timestamp("…")` (either way round) as a guard: the literal is read once, not on every run. */
function timeGuard(op: keyof typeof COMPARE, [left, right]: [ASTNode, ASTNode]): Guard | null {
  const isNow = (node: ASTNode) => node.op === 'id' && node.args === 'now';
  const [time, compare] = isNow(left)
    ? [literalTime(right), COMPARE[op]]
    : isNow(right)
      ? [literalTime(left), COMPARE[MIRROR[op]]]
      : [null, null];
  return time === null || !compare ? null : (input) => compare(input.now.getTime(), time);
}

/**
 * The guard a conjunct is, when it is a plain test of one variable: `os == "iOS"`, `country != "CN"`,
 * `language in ["zh", "ja"]`, `harmony`, `!super_app`, `has(query.utm)`, `now < timestamp("…")`.
 */
function guardOf(node: ASTNode): Guard | null {
  if (node.op === '==' || node.op === '!=') {
    const [left, right] = node.args;
    const name = stringVariable(left) ?? stringVariable(right);
    const literal = stringLiteral(right) ?? stringLiteral(left);
    if (!name || literal === null) return null;
    return node.op === '==' ? (input) => input[name] === literal : (input) => input[name] !== literal;
  }
  if (node.op === '<' || node.op === '<=' || node.op === '>' || node.op === '>=') return timeGuard(node.op, node.args);
  if (node.op === 'call' && node.args[0] === 'has') {
    const [field] = node.args[1];
    if (field?.op !== '.' || field.args[0].op !== 'id' || field.args[0].args !== 'query') return null;
    const key = field.args[1];
    return (input) => input.query.has(key);
  }
  if (node.op === 'in' && node.args[1].op === 'list') {
    const name = stringVariable(node.args[0]);
    const literals = node.args[1].args.map(stringLiteral);
    if (!name || literals.some((literal) => literal === null)) return null;
    return (input) => literals.includes(input[name]);
  }
  if (node.op === 'id' && BOOL_VARIABLES.has(node.args)) {
    const name = node.args as BoolVariable;
    return (input) => input[name];
  }
  if (node.op === '!_' && node.args.op === 'id' && BOOL_VARIABLES.has(node.args.args)) {
    const name = node.args.args as BoolVariable;
    return (input) => !input[name];
  }
  return null;
}

/**
 * The guards of a condition: its top-level conjuncts that test one variable against literals. In CEL
 * `false && x` is false whatever `x` does (an error included), so a failed guard decides the
 * condition without running it: most rules name a country, a system or an app first.
 */
function guardsOf(ast: ASTNode): Guard[] {
  if (ast.op === '&&') return [...guardsOf(ast.args[0]), ...guardsOf(ast.args[1])];
  const guard = guardOf(ast);
  return guard ? [guard] : [];
}

/** A message of the CEL library in the document's words. */
function reworded(error: { code?: string; summary?: string; message: string }): string {
  const summary = error.summary ?? error.message.split('\n')[0] ?? 'does not compile';
  const unknown = /^Unknown variable: (.*)$/.exec(summary);
  if (error.code === 'unknown_variable' && unknown) return `unknown variable "${unknown[1]}"`;
  return summary.charAt(0).toLowerCase() + summary.slice(1);
}

/** The condition `when` compiled, or why not (`at` an offset in it). */
function compileCondition(
  when: string,
  reads: Set<VariableName>,
): { ok: true; test: (input: object) => unknown; guards: Guard[] } | { ok: false; message: string; at: number } {
  try {
    const parsed = environment.parse(when);
    const checked = parsed.check();
    if (!checked.valid) {
      const error = checked.error ?? new Error('does not type-check');
      return { ok: false, message: reworded(error), at: 'range' in error ? (error.range?.start ?? 0) : 0 };
    }
    if (checked.type !== 'bool') {
      return { ok: false, message: `must be true or false, not ${checked.type ?? 'unknown'}`, at: 0 };
    }
    const found = inspect(parsed.ast, reads);
    if (found) return { ok: false, ...found };
    return { ok: true, test: parsed, guards: guardsOf(parsed.ast) };
  } catch (error) {
    if (error instanceof ParseError) return { ok: false, message: reworded(error), at: error.range?.start ?? 0 };
    return { ok: false, message: error instanceof Error ? error.message : String(error), at: 0 };
  }
}

/**
 * The host of `url` when it is an `https` URL on `allowedHosts` (a host, or `*.example.com` for its
 * subdomains); else why not.
 */
function allowedUrl(url: string, allowedHosts: readonly string[]): { ok: true } | { ok: false; message: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, message: 'must be an https URL' };
  }
  if (parsed.protocol !== 'https:') return { ok: false, message: 'must be an https URL' };
  if (parsed.username || parsed.password) return { ok: false, message: 'must not carry a user name or password' };
  return hostAllowed(parsed.hostname, allowedHosts)
    ? { ok: true }
    : { ok: false, message: `the host "${parsed.hostname}" is not on links.allowed_hosts` };
}

/** Whether `host` is on `allowedHosts`: named there, or under a `*.` entry's domain. */
export function hostAllowed(host: string, allowedHosts: readonly string[]): boolean {
  return allowedHosts.some((allowed) =>
    allowed.startsWith('*.') ? host.endsWith(allowed.slice(1)) && host.length > allowed.length - 1 : host === allowed,
  );
}

/**
 * `rules` compiled against the app's `allowedHosts`, or every refusal, each with its place
 * (`rules[2].when: … at 1:1`, `rules[0].url: …`). `allowedHosts` null compiles stored rules to run:
 * their URLs are held to the allow list of the moment when they run (evaluate.ts), not to today's here.
 */
export function compileRules(rules: readonly Rule[], allowedHosts: readonly string[] | null): Compiled {
  const errors: string[] = [];
  const compiled: CompiledRule[] = [];
  const reads = new Set<VariableName>();
  rules.forEach((rule, index) => {
    const condition = compileCondition(rule.when, reads);
    if (!condition.ok)
      errors.push(`rules[${index}].when: ${condition.message} at ${positionOf(rule.when, condition.at)}`);
    if (rule.action === 'url' && allowedHosts !== null) {
      const url = allowedUrl(rule.url, allowedHosts);
      if (!url.ok) errors.push(`rules[${index}].url: ${url.message}`);
    }
    if (condition.ok) compiled.push({ index, test: condition.test, guards: condition.guards, action: actionOf(rule) });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, compiled: { rules: compiled, reads } };
}
