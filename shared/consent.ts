/**
 * What a person's consent switches off (docs/privacy.md, "Consent"): one table of signals and what
 * each stops, read by the page (the fingerprint id), the worker (the probabilistic match, the sends
 * to third parties) and rendered into the docs (`consentTable`, held equal by
 * tests/unit/consent-table.test.ts). The signals come from a browser's Global Privacy Control, an
 * IAB TCF v2.2 or GPP string (decoded by shared/consent-strings.ts) and an app's consent flag sent
 * by the SDKs. Deterministic carriers are never stopped: the person tapped that link.
 */

/** What consent can switch off. */
export const CONSENT_EFFECTS = ['probabilisticMatch', 'fingerprint', 'thirdParty'] as const;
export type ConsentEffect = (typeof CONSENT_EFFECTS)[number];

const ALL: readonly ConsentEffect[] = CONSENT_EFFECTS;

/** Each signal, how it is told, and what it stops: the one table. */
export const CONSENT_RULES = {
  gpc: {
    signal: "`Sec-GPC: 1`, `navigator.globalPrivacyControl`, a GPP US section with `Gpc`, or the SDK's `gpc: true`",
    stops: ALL,
  },
  'tcf-purpose-1': {
    signal:
      'a TCF v2.2 string (or GPP `tcfeuv2` section) without consent to purpose 1 (store or access information on a device)',
    stops: ALL,
  },
  'tcf-special-feature-2': {
    signal: 'a TCF string without opt-in to special feature 2 (actively scan device characteristics)',
    stops: ['probabilisticMatch', 'fingerprint'],
  },
  'tcf-purpose-7': {
    signal: 'a TCF string without consent to purpose 7 (measure advertising performance)',
    stops: ['probabilisticMatch', 'thirdParty'],
  },
  'tcf-purpose-2': {
    signal: 'a TCF string without consent to purpose 2 (use limited data to select advertising)',
    stops: ['thirdParty'],
  },
  'gpp-opt-out': {
    signal: 'a GPP US section (`usnat`, `usca`, …) opting out of sale, sharing or targeted advertising',
    stops: ALL,
  },
  unreadable: {
    signal: 'a TCF or GPP string that does not decode: no consent can be read from it',
    stops: ALL,
  },
  'app-tracking-off': {
    signal: "an app's `consent: { tracking: false }` (the SDKs' consent flag)",
    stops: ALL,
  },
  'att-not-authorized': {
    signal: "an iOS app's App Tracking Transparency status `denied`, `restricted` or `notDetermined`",
    stops: ALL,
  },
} as const satisfies Record<string, { signal: string; stops: readonly ConsentEffect[] }>;

export type ConsentSignal = keyof typeof CONSENT_RULES;

/** A person's consent as the signals that arrived; none means nothing is stopped. */
export type Consent = readonly ConsentSignal[];

/** Whether `consent` lets `effect` happen. Every sender to a third party must ask this first. */
export function allows(consent: Consent, effect: ConsentEffect): boolean {
  return !consent.some((signal) => (CONSENT_RULES[signal].stops as readonly ConsentEffect[]).includes(effect));
}

/** iOS App Tracking Transparency's statuses (`ATTrackingManager.AuthorizationStatus`). */
export const ATT_STATUSES = ['authorized', 'denied', 'restricted', 'notDetermined'] as const;
export type AttStatus = (typeof ATT_STATUSES)[number];

/**
 * The consent a page or an app reports (the click's and the install's `consent` field): `gpc` as the
 * browser tells it, the raw TCF (`gdpr_consent`) and GPP (`gpp`) strings, and an app's own flag and
 * ATT status.
 */
export interface ConsentReport {
  gpc?: boolean;
  tcf?: string;
  gpp?: string;
  tracking?: boolean;
  att?: AttStatus;
}

/** The longest TCF or GPP string read (a TC string with every vendor is a few kB). */
export const MAX_CONSENT_STRING = 4096;

/** The signals of a report that need no decoding. */
export function plainSignals(report: ConsentReport | undefined, gpcHeader?: string | null): ConsentSignal[] {
  const signals: ConsentSignal[] = [];
  if (report?.gpc === true || gpcHeader?.trim() === '1') signals.push('gpc');
  if (report?.tracking === false) signals.push('app-tracking-off');
  if (report?.att && report.att !== 'authorized') signals.push('att-not-authorized');
  return signals;
}

/** A Markdown table of the signals (rows) and what each stops (columns). */
export function consentTable(): string {
  const head = ['Signal', 'Probabilistic match', 'Fingerprint id', 'Sends to third parties'];
  const rows = Object.entries(CONSENT_RULES).map(([id, rule]) => [
    `\`${id}\`: ${rule.signal}`,
    ...CONSENT_EFFECTS.map((effect) => ((rule.stops as readonly ConsentEffect[]).includes(effect) ? 'stops' : '')),
  ]);
  const all = [head, ...rows];
  const widths = head.map((_, at) => Math.max(...all.map((row) => [...(row[at] ?? '')].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, at) => cell + ' '.repeat((widths[at] ?? 0) - [...cell].length)).join(' | ')} |`;
  return [line(head), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
