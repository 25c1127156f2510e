/**
 * The bundled demo configuration (docs/config.md): what a development worker serves when KV has no
 * usable document (production answers 503 instead, config/configured-only.ts), and what `npm start`
 * seeds an empty local KV with. `demo.json` is also a starting point
 * for operators (`npm run config:push -- worker/config/demo.json --local`).
 */

import type { LanderConfig } from '../../shared/config/schema.ts';
import demo from './demo.json' with { type: 'json' };
import { formatProblems, validateConfig } from './validate.ts';

function load(): LanderConfig {
  const result = validateConfig(demo);
  if (!result.ok) throw new Error(`The bundled demo config is invalid:\n${formatProblems(result.problems)}`);
  return result.config;
}

export const DEMO_CONFIG: LanderConfig = load();

/** The demo document as JSON text, as it is stored in KV. */
export const DEMO_CONFIG_JSON: string = JSON.stringify(demo);
