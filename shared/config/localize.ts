/** Config texts per language (PRODUCT.md §5.4): the visitor's language, else the other one. */
import type { Language } from '../handoff.ts';
import type { LocalText } from './schema.ts';

export function localize(value: LocalText, language: Language): string {
  if (typeof value === 'string') return value;
  return value[language] ?? value.en ?? value['zh-CN'] ?? '';
}
