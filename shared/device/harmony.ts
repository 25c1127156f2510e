/**
 * HarmonyOS (docs/device.md), where ua-parser-js alone is wrong. HarmonyOS NEXT (5 and later) sends
 * `OpenHarmony` and `ArkWeb`; its `OpenHarmony` token wins over the `Android 10` that HarmonyOS 6
 * phones add and over the `Windows NT` of HarmonyOS PCs (`(PC; OpenHarmony 6.1; Windows NT 10.0)`).
 * HarmonyOS 2–4 run Android apps and send Android agents carrying `HarmonyOS`,
 * `BDOS/1.0 (HarmonyOS …)` (the Baidu app) or `Hmos/` (DingTalk).
 */

/** The device class HarmonyOS NEXT names first in its agent: `(Phone; OpenHarmony 5.0)`. */
export type HarmonyFormFactor = 'phone' | 'tablet' | 'pc' | 'other' | '';

/** What a HarmonyOS agent tells. */
export interface Harmony {
  /** HarmonyOS NEXT (native), as opposed to the Android-based HarmonyOS 2–4. */
  next: boolean;
  /** The HarmonyOS version the agent names, `''` when it names none. */
  version: string;
  /** NEXT only; `''` for Android-based agents, whose form factor the Android parts tell. */
  formFactor: HarmonyFormFactor;
}

const OPEN_HARMONY = /\bOpenHarmony(?: ([\d.]+))?|\bArkWeb\//;
const FORM_FACTOR = /^Mozilla\/5\.0 \(([\w ]+?)[;)]/;
const ANDROID_HARMONY = /\bHarmonyOS\b(?:[ /]([\d.]+))?|\bHmos\/\d/;

function formFactor(userAgent: string): HarmonyFormFactor {
  const name = FORM_FACTOR.exec(userAgent)?.[1]?.toLowerCase() ?? '';
  if (name === 'phone') return 'phone';
  if (name === 'tablet') return 'tablet';
  // `2in1` is Huawei's name for its convertible PCs.
  if (name === 'pc' || name === '2in1') return 'pc';
  return name ? 'other' : '';
}

/** HarmonyOS facts of an agent, or `null` when it is not a HarmonyOS agent. */
export function detectHarmony(userAgent: string): Harmony | null {
  const next = OPEN_HARMONY.exec(userAgent);
  if (next) {
    const named = ANDROID_HARMONY.exec(userAgent)?.[1];
    return { next: true, version: next[1] ?? named ?? '', formFactor: formFactor(userAgent) };
  }
  const android = ANDROID_HARMONY.exec(userAgent);
  if (android) return { next: false, version: android[1] ?? '', formFactor: '' };
  return null;
}

/** Whether a HarmonyOS form factor is a handheld; `undefined` when the agent does not say. */
export function harmonyMobile(harmony: Harmony): boolean | undefined {
  switch (harmony.formFactor) {
    case 'phone':
    case 'tablet':
      return true;
    case 'pc':
    case 'other':
      return false;
    case '':
      return undefined;
  }
}
