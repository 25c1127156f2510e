/** The site's head metadata (docs/screens.md last bullet) from the configuration, in one language. */

import type { LanderConfig } from '../../shared/config/schema.ts';
import type { SiteMeta } from '../../shared/page-meta.ts';
import type { Language } from '../../shared/texts.ts';
import { localize } from '../config/localize.ts';

export function siteMeta(config: LanderConfig, language: Language): SiteMeta {
  const app = config.appData[0];
  const name = app ? localize(app.name, language) : '';
  const tagline = localize(config.commonConfig.tagline, language);
  return {
    name,
    title: `${name} – ${tagline}`,
    description: localize(config.commonConfig.description, language),
    image: config.commonConfig.og_image ?? app?.logo_url ?? '/logo.png',
  };
}
