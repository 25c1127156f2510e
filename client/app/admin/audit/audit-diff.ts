/**
 * What an audit entry changed (docs/operators.md#audit-log): its before and after, both JSON, as the
 * fields that differ, each by its dotted path (`data.utm_source`), with its value before and after
 * (`undefined` where the field is absent: a created thing has no before, a deleted one no after).
 */

export interface FieldChange {
  path: string;
  before: unknown;
  after: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value`'s leaves by dotted path; an array or a scalar is one leaf. */
function leaves(value: unknown, path: string, into: Map<string, unknown>): Map<string, unknown> {
  if (isObject(value) && Object.keys(value).length > 0) {
    for (const [key, inner] of Object.entries(value)) leaves(inner, path ? `${path}.${key}` : key, into);
  } else if (value !== null && value !== undefined) {
    into.set(path, value);
  }
  return into;
}

/** The fields in which `after` differs from `before`, in path order. */
export function fieldChanges(before: unknown, after: unknown): FieldChange[] {
  const old = leaves(before, '', new Map());
  const now = leaves(after, '', new Map());
  const paths = [...new Set([...old.keys(), ...now.keys()])].sort();
  return paths
    .filter((path) => JSON.stringify(old.get(path)) !== JSON.stringify(now.get(path)))
    .map((path) => ({ path: path || '(value)', before: old.get(path), after: now.get(path) }));
}

/**
 * A value as the diff shows it: a time field's epoch ms (`expiresAt`, `createdAt`) through `time`,
 * text as it is, anything else as JSON; absent as an empty string.
 */
export function shown(path: string, value: unknown, time: (ms: number) => string): string {
  if (value === undefined) return '';
  if (typeof value === 'number' && /At$/.test(path) && Number.isSafeInteger(value)) return time(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}
