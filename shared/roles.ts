/**
 * Who may do what in an app (docs/operators.md#roles): one table of roles and the scopes each holds.
 * The worker's sign-in checks a route's scope against it (worker/sign-in/operator-auth.ts), a key
 * can hold only scopes of it, the docs' table is rendered from it (`rolesTable`, held equal by
 * tests/unit/roles-table.test.ts) and the tests draw their requests from it.
 */

/** Every scope, each `<area>:read` or `<area>:write` (`members:owner`: make, demote or remove an owner). */
export const SCOPES = [
  'config:read',
  'config:write',
  'links:read',
  'links:write',
  'stats:read',
  'fraud:read',
  'installs:read',
  'test-devices:read',
  'test-devices:write',
  'store-postbacks:read',
  'webhooks:read',
  'webhooks:write',
  'conversions:read',
  'conversions:write',
  'losses:read',
  'audit:read',
  'privacy:read',
  'privacy:write',
  'keys:read',
  'keys:write',
  'members:read',
  'members:write',
  'members:owner',
] as const;
export type Scope = (typeof SCOPES)[number];

/** The roles, the most able first. */
export const ROLES = ['owner', 'admin', 'editor', 'analyst', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** What a viewer reads: the figures and the links. */
const VIEWER: Scope[] = ['links:read', 'stats:read', 'store-postbacks:read'];
/** An analyst reads everything that is not the team's: configuration, figures, flags, answers, endpoints, losses. */
const ANALYST: Scope[] = [
  ...VIEWER,
  'config:read',
  'fraud:read',
  'installs:read',
  'test-devices:read',
  'webhooks:read',
  'conversions:read',
  'losses:read',
];
/** An editor changes what the app serves and sends, and reads who changed it. */
const EDITOR: Scope[] = [
  ...ANALYST,
  'config:write',
  'links:write',
  'test-devices:write',
  'webhooks:write',
  'conversions:write',
  'audit:read',
];
/** An admin runs the team: keys and members, up to admins; and answers privacy requests (erasure, access). */
const ADMIN: Scope[] = [
  ...EDITOR,
  'keys:read',
  'keys:write',
  'members:read',
  'members:write',
  'privacy:read',
  'privacy:write',
];

/** The one table: each role's scopes. */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  owner: SCOPES,
  admin: ADMIN,
  editor: EDITOR,
  analyst: ANALYST,
  viewer: VIEWER,
};

/**
 * An operator route's area (`operatorAuth('links')`): a GET or HEAD needs its read scope, any other
 * method its write scope. An area that is only read names its scope instead (`operatorAuth('stats:read')`).
 */
export const AREAS = {
  config: { read: 'config:read', write: 'config:write' },
  links: { read: 'links:read', write: 'links:write' },
  'test-devices': { read: 'test-devices:read', write: 'test-devices:write' },
  webhooks: { read: 'webhooks:read', write: 'webhooks:write' },
  conversions: { read: 'conversions:read', write: 'conversions:write' },
  keys: { read: 'keys:read', write: 'keys:write' },
  members: { read: 'members:read', write: 'members:write' },
  privacy: { read: 'privacy:read', write: 'privacy:write' },
} as const satisfies Record<string, { read: Scope; write: Scope }>;
export type Area = keyof typeof AREAS;

/** What a route declares it needs: an area (read or write by its method) or one scope. */
export type Need = Area | Scope;

const READS = new Set(['GET', 'HEAD']);

/** The scope a request with `method` needs on a route that declared `need`. */
export function scopeFor(need: Need, method: string): Scope {
  if (!(need in AREAS)) return need as Scope;
  const area = AREAS[need as Area];
  return READS.has(method.toUpperCase()) ? area.read : area.write;
}

/** The first of `wanted` that `held` lacks, or undefined when `held` covers them all. */
export function missingScope(held: readonly Scope[], wanted: readonly Scope[]): Scope | undefined {
  return wanted.find((scope) => !held.includes(scope));
}

/** Whether `text` is a scope. */
export const isScope = (text: string): text is Scope => (SCOPES as readonly string[]).includes(text);
/** Whether `text` is a role. */
export const isRole = (text: string): text is Role => (ROLES as readonly string[]).includes(text);

/** A Markdown table of the roles (columns) and scopes (rows), cells padded to line up. */
export function rolesTable(): string {
  const rows = [
    ['Scope', ...ROLES],
    ...SCOPES.map((scope) => [`\`${scope}\``, ...ROLES.map((role) => (ROLE_SCOPES[role].includes(scope) ? '✓' : ''))]),
  ];
  const widths = rows[0]?.map((_, at) => Math.max(...rows.map((row) => [...(row[at] ?? '')].length))) ?? [];
  const line = (cells: string[]) =>
    `| ${cells.map((cell, at) => cell + ' '.repeat((widths[at] ?? 0) - [...cell].length)).join(' | ')} |`;
  const [head = [], ...body] = rows;
  return [line(head), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}
