/**
 * What a page serving mainland China must disclose (docs/screens.md#mainland-china): MIIT's notice
 * asks a page recommending an app download to show its developer, functions, privacy policy and
 * permissions list. `config:push` refuses a document with `china.mainland` on that lacks any of
 * them, in every environment: the page would otherwise ask for the confirming tap without the facts.
 */
import type { LanderConfig } from '../../shared/config/schema.ts';
import type { ConfigProblem } from './validate.ts';

/** Each disclosure `config` lacks for mainland visitors, at its JSON path; none when mainland is off. */
export function mainlandGaps(config: LanderConfig): ConfigProblem[] {
  if (!config.china?.mainland) return [];
  const about = config.about;
  const gaps: ConfigProblem[] = [];
  const missing = (field: string, what: string) =>
    gaps.push({ path: `$.about.${field}`, message: `missing: china.mainland needs ${what}` });
  if (!about?.developer) missing('developer', 'the developer or company name');
  if (!about?.description && config.commonConfig.features.length === 0) {
    missing('description', 'what the app does (or commonConfig.features)');
  }
  if (!about?.privacy_url) missing('privacy_url', 'the privacy policy’s https URL');
  if (!about?.permissions.length)
    missing('permissions', 'the permissions the Android app asks for, each with its purpose');
  return gaps;
}
