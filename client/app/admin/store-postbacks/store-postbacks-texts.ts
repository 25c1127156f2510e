/** The store postbacks room's words (docs/store-postbacks.md): Apple's signed postbacks by day. */
import type { Language } from '../../../../shared/texts.ts';
import type { SharedTexts } from '../shared/shared-texts.ts';

const en = {
  storePostbacks: 'Store postbacks (iOS)',
  storePostbacksHint:
    'SKAdNetwork and AdAttributionKit copies that Apple signed, verified and counted once each, by day received. Apart from the funnel.',
  noStorePostbacks: 'No signed postbacks from Apple in this range.',
  framework: 'Framework',
  source: 'Source',
  publisher: 'Publisher',
  conversionValue: 'Conversion value',
  postbackWindow: 'Window',
  country: 'Country',
  reengagement: 'Re-engagement',
  postbacks: 'Postbacks',
  yes: 'yes',
};

export type StorePostbacksWords = typeof en;
/** What the room's components read: its own words and the shared ones. */
export type StorePostbacksTexts = SharedTexts & StorePostbacksWords;

const zhCN: StorePostbacksWords = {
  storePostbacks: '商店回传（iOS）',
  storePostbacksHint:
    '经 Apple 签名的 SKAdNetwork 与 AdAttributionKit 回传副本，验签后每条只计一次，按接收日期。不计入漏斗。',
  noStorePostbacks: '此时间范围内没有 Apple 签名的回传。',
  framework: '框架',
  source: '来源',
  publisher: '发布方',
  conversionValue: '转化值',
  postbackWindow: '窗口',
  country: '国家/地区',
  reengagement: '再互动',
  postbacks: '回传',
  yes: '是',
};

const tables: Record<Language, StorePostbacksWords> = { en, 'zh-CN': zhCN };

/** The words in `language`. */
export function storePostbacksWords(language: Language): StorePostbacksWords {
  return tables[language];
}
