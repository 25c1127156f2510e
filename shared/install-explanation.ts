/**
 * Why an install or open got its answer (docs/attribution.md, "Why an answer"): which carriers
 * arrived and what each was worth, and, on the probabilistic path, what the install's network held.
 * Counts, durations and field names only: nothing here names a person, an address or an install id.
 * The worker stores it with the answer; the console, the CLIs and a test device read it, and
 * `explanationLines` words it the same way everywhere.
 */
import type { Language } from './texts.ts';

/** Where a carrier came from: the install's `carriers` fields, or the open's `carrier`. */
export type CarrierSource =
  | 'apk'
  | 'harmonyLink'
  | 'playReferrer'
  | 'appGallery'
  | 'clipboard'
  | 'link'
  | 'metaReferrer';

/**
 * What a carrier was worth: `used` answered; `unused` was valid but an earlier one answered;
 * `not-a-carrier` held no `/i/<carrier>` and was no bare carrier; `bad-click-id` had a carrier's
 * shape but no real click id; `bad-signature` carried a campaign token that does not verify
 * (tampered, another deployment's key, or campaign decoding off); `unissued` named a click id this
 * deployment never issued and never saw tapped (or, with its storage down, could not check);
 * `claimed` named a click that already credited another install (docs/attribution.md, "Which clicks
 * credit"); for Meta's install referrer (docs/attribution.md#metas-install-referrer), `no-key` (the
 * app has no decryption key from Meta) and `expired` (older than Meta's window), and for it or a
 * Lander carrier `earlier`: valid, but the other touch was the later one.
 */
export type CarrierVerdict =
  | 'used'
  | 'unused'
  | 'not-a-carrier'
  | 'bad-click-id'
  | 'bad-signature'
  | 'unissued'
  | 'claimed'
  | 'no-key'
  | 'expired'
  | 'earlier';

export interface CarrierCheck {
  source: CarrierSource;
  verdict: CarrierVerdict;
  /** For a used carrier: whether its tap's beacon was recorded (else `clickedAt` is null). */
  tapRecorded?: boolean;
}

/** A fact of the device tuple the probabilistic match compares (docs/attribution.md), in the order compared. */
export const TUPLE_FIELDS = ['os', 'timeZone', 'language', 'osVersion', 'model', 'screen', 'scale'] as const;
export type TupleField = (typeof TUPLE_FIELDS)[number];

/** The probabilistic match, seen from the install's network. */
export type NetworkReport =
  | { outcome: 'no-network' }
  /** The install's consent stops the probabilistic match (docs/privacy.md, "Consent"). */
  | { outcome: 'consent' }
  | {
      outcome: 'matched' | 'ambiguous' | 'none' | 'expired';
      /** The window in minutes (config `attribution.window_hours`). */
      windowMinutes: number;
      /** Unclaimed taps still kept on the network (the window and as long again). */
      taps: number;
      /** Of those, taps like this device inside the window: the candidates. */
      candidates: number;
      /** Distinct people among the candidates (a visitor id is one person; without one, each tap is). */
      people: number;
      /** Minutes from the oldest to the newest candidate; 0 for one. */
      spanMinutes: number;
      /** Minutes since the newest candidate, or since the newest expired look-alike; null for none. */
      ageMinutes: number | null;
      /** Taps like this device, but older than the window. */
      expired: number;
      /** Taps unlike this device, by the first fact that differed. */
      differ: Partial<Record<TupleField, number>>;
      /** A retry of an install that had already claimed its click. */
      remembered?: boolean;
    };

/** A report from a network bucket (every outcome but `no-network`). */
export type NetworkFacts = Exclude<NetworkReport, { outcome: 'no-network' | 'consent' }>;

export interface Explanation {
  /** The carriers that arrived, in the order they are tried. */
  carriers: CarrierCheck[];
  /** The probabilistic match, when no carrier answered (installs only); null otherwise. */
  network: NetworkReport | null;
}

const en = {
  sep: ': ',
  source: {
    apk: 'APK stamp',
    harmonyLink: 'HarmonyOS link',
    playReferrer: 'Play referrer',
    appGallery: 'AppGallery referrer',
    clipboard: 'Clipboard',
    link: 'Link',
    metaReferrer: "Meta's install referrer",
  },
  verdict: {
    used: 'valid, answered',
    unused: 'valid, not needed',
    'not-a-carrier': 'not a carrier',
    'bad-click-id': 'no real click id',
    'bad-signature': 'campaign signature does not verify',
    unissued: 'a click id Lander never issued',
    claimed: 'its click already credited another install',
    'no-key': 'no decryption key from Meta for this app',
    expired: "older than Meta's window",
    earlier: 'valid, but the other touch was later',
  },
  untracked: ' (its tap was never recorded)',
  noCarrier: 'No carrier arrived.',
  field: {
    os: 'OS',
    osVersion: 'OS version',
    model: 'model',
    screen: 'screen size',
    scale: 'screen scale',
    timeZone: 'time zone',
    language: 'language',
  },
  noNetwork: 'The request showed no network address: no probabilistic match.',
  consent: "The install's consent stops the probabilistic match: carriers only.",
  taps: (n: number, minutes: number) =>
    `${n} unclaimed tap${n === 1 ? '' : 's'} on this network (window ${minutes} min).`,
  matched: (age: number | null) =>
    `One person tapped on this network with a device like this one${age === null ? '' : `, ${age} min before`}.`,
  remembered: 'The same click this install already claimed.',
  ambiguous: (taps: number, people: number, span: number) =>
    `${taps} taps by ${people} people on this network within ${span} min look like this device: Lander never guesses between people.`,
  none: 'No tap on this network looks like this device.',
  expired: (n: number, age: number | null) =>
    `${n} tap${n === 1 ? '' : 's'} like this device, the newest ${age ?? '?'} min ago: older than the window.`,
  differ: (parts: string) => `Taps unlike this device: ${parts}.`,
};

type ExplanationTexts = typeof en;

const zhCN: ExplanationTexts = {
  sep: '：',
  source: {
    apk: 'APK 戳记',
    harmonyLink: '鸿蒙链接',
    playReferrer: 'Play 引荐',
    appGallery: '华为应用市场引荐',
    clipboard: '剪贴板',
    link: '链接',
    metaReferrer: 'Meta 安装引荐',
  },
  verdict: {
    used: '有效，已采用',
    unused: '有效，未用到',
    'not-a-carrier': '不是载体',
    'bad-click-id': '点击 ID 无效',
    'bad-signature': '活动签名校验失败',
    unissued: '不是 Lander 签发的点击 ID',
    claimed: '其点击已归因给另一次安装',
    'no-key': '此应用没有 Meta 的解密密钥',
    expired: '已超出 Meta 的窗口',
    earlier: '有效，但另一次触达更晚',
  },
  untracked: '（其点击未被记录）',
  noCarrier: '没有收到任何载体。',
  field: {
    os: '系统',
    osVersion: '系统版本',
    model: '机型',
    screen: '屏幕尺寸',
    scale: '屏幕缩放',
    timeZone: '时区',
    language: '语言',
  },
  noNetwork: '请求没有网络地址：无法概率匹配。',
  consent: '此安装的同意设置不允许概率匹配：只用载体。',
  taps: (n, minutes) => `此网络上有 ${n} 次未认领的点击（窗口 ${minutes} 分钟）。`,
  matched: (age) => `此网络上只有一人用类似设备点击过${age === null ? '' : `，在 ${age} 分钟前`}。`,
  remembered: '与此安装已认领的点击相同。',
  ambiguous: (taps, people, span) =>
    `此网络上 ${span} 分钟内有 ${people} 人的 ${taps} 次点击与此设备相似：Lander 从不在多人之间猜测。`,
  none: '此网络上没有与此设备相似的点击。',
  expired: (n, age) => `${n} 次与此设备相似的点击，最近一次在 ${age ?? '?'} 分钟前：已超出窗口。`,
  differ: (parts) => `与此设备不同的点击：${parts}。`,
};

const TEXTS: Record<Language, ExplanationTexts> = { en, 'zh-CN': zhCN };

/** The explanation in sentences of `language`: one line per carrier, then the network's story. */
export function explanationLines(explanation: Explanation, language: Language = 'en'): string[] {
  const t = TEXTS[language];
  const lines = explanation.carriers.map(
    (check) =>
      `${t.source[check.source]}${t.sep}${t.verdict[check.verdict]}${check.tapRecorded === false ? t.untracked : ''}`,
  );
  if (lines.length === 0) lines.push(t.noCarrier);
  const report = explanation.network;
  if (!report) return lines;
  if (report.outcome === 'no-network') return [...lines, t.noNetwork];
  if (report.outcome === 'consent') return [...lines, t.consent];
  lines.push(t.taps(report.taps, report.windowMinutes));
  if (report.outcome === 'matched') lines.push(report.remembered ? t.remembered : t.matched(report.ageMinutes));
  if (report.outcome === 'ambiguous') lines.push(t.ambiguous(report.candidates, report.people, report.spanMinutes));
  if (report.outcome === 'none') lines.push(t.none);
  if (report.outcome === 'expired') lines.push(t.expired(report.expired, report.ageMinutes));
  const differ = TUPLE_FIELDS.filter((field) => (report.differ[field] ?? 0) > 0).map(
    (field) => `${t.field[field]} ${report.differ[field]}`,
  );
  if (differ.length > 0) lines.push(t.differ(differ.join(', ')));
  return lines;
}
