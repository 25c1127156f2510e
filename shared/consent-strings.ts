/**
 * The signals of a report's consent strings (docs/privacy.md, "Consent"), read by the IAB's
 * documented bit layouts: a TCF v2.2 TC string's core segment (its special feature opt-ins and
 * purpose consents), and a GPP string's header, its `tcfeuv2` section (the same core segment) and
 * its US sections (`usnat` and the states': the sale, sharing and targeted-advertising opt-outs, and
 * the `Gpc` of their GPC sub-section). Only these few fields are read, in ~1 kB: `@iabtcf/core` and
 * `@iabgpp/cmpapi` weigh 23 kB gzip together, more than the worker's budget has left
 * (docs/dependencies.md), so they are the tests' oracle (tests/unit/consent-strings.test.ts holds
 * this reading equal to theirs over random strings).
 */
import { type Consent, type ConsentReport, type ConsentSignal, plainSignals } from './consent.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The bits of one base64url segment, as '0'/'1'; throws on a character outside the alphabet. */
function bitsOf(segment: string): string {
  let bits = '';
  for (const char of segment) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) throw new Error('not base64url');
    bits += value.toString(2).padStart(6, '0');
  }
  return bits;
}

/** The unsigned integer of `length` bits at `start`; throws past the end. */
function intAt(bits: string, start: number, length: number): number {
  if (start + length > bits.length) throw new Error('too short');
  return Number.parseInt(bits.slice(start, start + length), 2);
}

/** TCF v2 core segment: where the special feature opt-ins (12 bits) and purpose consents (24) start. */
const TCF_SPECIAL_FEATURES = 140;
const TCF_PURPOSES = 152;

/** TCF purposes whose missing consent is a signal of shared/consent.ts. */
const PURPOSE_SIGNALS = [
  [1, 'tcf-purpose-1'],
  [2, 'tcf-purpose-2'],
  [7, 'tcf-purpose-7'],
] as const;

/** The TCF signals of a core segment (a TC string's first, or a GPP `tcfeuv2` section's). */
function tcfCoreSignals(core: string): ConsentSignal[] {
  const bits = bitsOf(core);
  if (intAt(bits, 0, 6) !== 2) throw new Error('not TCF v2');
  intAt(bits, TCF_PURPOSES, 24);
  const signals: ConsentSignal[] = PURPOSE_SIGNALS.filter(([n]) => bits[TCF_PURPOSES + n - 1] !== '1').map(
    ([, signal]) => signal,
  );
  if (bits[TCF_SPECIAL_FEATURES + 1] !== '1') signals.push('tcf-special-feature-2');
  return signals;
}

/** The signals of a TC string; one that does not decode is `unreadable`. */
export function tcfStringSignals(text: string): ConsentSignal[] {
  try {
    return tcfCoreSignals(text.split('.')[0] ?? '');
  } catch {
    return ['unreadable'];
  }
}

/**
 * GPP US sections by id (the GPP specification's section list), with the bit offsets of their
 * core segment's opt-outs: sale, then sharing or targeted advertising; 1 is "opted out".
 */
const US_OPT_OUTS = new Map<number, readonly number[]>([
  [7, [18, 20, 22]], // usnat
  [8, [12, 14]], // usca: sale, sharing
  ...[9, 10, 12, 13, 14, 15, 16, 17, 19, 20, 21, 22, 23].map((id) => [id, [12, 14]] as const), // va co ct fl mt or tx de ne nh nj tn mn
  [11, [14, 16]], // usut
  [18, [14, 16]], // usia
  [24, [16, 18]], // usmd
  [25, [16, 18]], // usin
  [26, [16, 18]], // usky
  [27, [16, 18]], // usri
]);

/** GPP's section id of TCF EU v2. */
const TCF_EU_V2 = 2;

/** The section ids of a GPP header: a count, then Fibonacci-coded ids or ranges, each after the last. */
function sectionIds(bits: string): number[] {
  if (intAt(bits, 0, 6) !== 3 || intAt(bits, 6, 6) !== 1) throw new Error('not a GPP v1 header');
  const count = intAt(bits, 12, 12);
  const ids: number[] = [];
  let at = 24;
  let last = 0;
  const fibonacci = () => {
    const end = bits.indexOf('11', at);
    if (end < 0) throw new Error('bad Fibonacci integer');
    let value = 0;
    let [a, b] = [1, 2];
    for (let i = at; i <= end; i += 1) {
      if (bits[i] === '1') value += a;
      [a, b] = [b, a + b];
    }
    at = end + 2;
    last += value;
    return last;
  };
  for (let n = 0; n < count; n += 1) {
    const range = intAt(bits, at, 1) === 1;
    at += 1;
    const start = fibonacci();
    const end = range ? fibonacci() : start;
    for (let id = start; id <= end && ids.length < 64; id += 1) ids.push(id);
  }
  return ids;
}

/**
 * The signals of a GPP string: its `tcfeuv2` section by the TCF rules, its US sections by their
 * opt-outs and `Gpc`; other sections say nothing here. One that does not decode is `unreadable`.
 */
export function gppStringSignals(text: string): ConsentSignal[] {
  try {
    const [header = '', ...sections] = text.split('~');
    const ids = sectionIds(bitsOf(header));
    if (ids.length !== sections.length) throw new Error('sections and header disagree');
    const signals = new Set<ConsentSignal>();
    ids.forEach((id, index) => {
      const [core = '', ...subsections] = (sections[index] ?? '').split('.');
      if (id === TCF_EU_V2) for (const signal of tcfCoreSignals(core)) signals.add(signal);
      const optOuts = US_OPT_OUTS.get(id);
      if (!optOuts) return;
      const bits = bitsOf(core);
      if (optOuts.some((offset) => intAt(bits, offset, 2) === 1)) signals.add('gpp-opt-out');
      // The GPC sub-section: type 1 (2 bits), then the Gpc bit.
      for (const sub of subsections) {
        const subBits = bitsOf(sub);
        if (intAt(subBits, 0, 2) === 1 && intAt(subBits, 2, 1) === 1) signals.add('gpc');
      }
    });
    return [...signals];
  } catch {
    return ['unreadable'];
  }
}

/** The consent of a report: its plain signals, and those of its TCF and GPP strings. */
export function consentOf(report: ConsentReport | undefined, gpcHeader?: string | null): Consent {
  const signals = new Set<ConsentSignal>(plainSignals(report, gpcHeader));
  if (report?.tcf) for (const signal of tcfStringSignals(report.tcf)) signals.add(signal);
  if (report?.gpp) for (const signal of gppStringSignals(report.gpp)) signals.add(signal);
  return [...signals];
}
