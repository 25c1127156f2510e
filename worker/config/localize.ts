/** Config texts per language (docs/screens.md): the visitor's language, else the other one. */

import type { LocalText } from '../../shared/config/schema.ts';
import type { Language } from '../../shared/texts.ts';

export function localize(value: LocalText, language: Language): string {
  if (typeof value === 'string') return value;
  return value[language] ?? value.en ?? value['zh-CN'] ?? '';
}
