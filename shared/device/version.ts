/** Dotted version numbers (`8.0.46.2540`) as agents write them. */

/** Compares two dotted versions numerically; missing parts count as 0. */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const diff = (Number.parseInt(left[i] ?? '0', 10) || 0) - (Number.parseInt(right[i] ?? '0', 10) || 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

/** The first capture group that matched, without trailing dots (`11.30.9.21.arm64` → `11.30.9.21`), or `''`. */
export function firstGroup(match: RegExpExecArray | null): string {
  if (!match) return '';
  for (let i = 1; i < match.length; i++) {
    const group = match[i]?.replace(/\.+$/, '');
    if (group) return group;
  }
  return '';
}
