/**
 * What production needs of the operator beyond the schema (docs/config.md#production): their own
 * store ids, package and download origin — never one left out, never the demo's. A development
 * document may lean on the demo; a production one that did would send real visitors to another
 * app. `config:push --env production` and `npm run deploy -- --env production` refuse on any gap.
 */
import type { LanderConfig } from '../../shared/config/schema.ts';
import { DEMO_CONFIG } from './demo.ts';
import type { ConfigProblem } from './validate.ts';

/** The fields of an app item that identify the operator's app in a store. */
const IDENTITY_FIELDS = ['app_store_id', 'appgallery_id', 'package', 'bundle_id', 'store_url', 'yyb_url'] as const;

/** Host names reserved for examples and tests (RFC 2606, RFC 6761): never a real download host. */
const PLACEHOLDER_HOST = /(^|\.)(example|test|invalid|localhost)$|(^|\.)example\.(com|net|org)$/;

/** True when `origin` is not a real https origin of the operator's. */
export function isPlaceholderOrigin(origin: string | undefined): boolean {
  if (!origin || !URL.canParse(origin)) return true;
  const url = new URL(origin);
  return url.protocol !== 'https:' || PLACEHOLDER_HOST.test(url.hostname);
}

function demoValues(field: (typeof IDENTITY_FIELDS)[number]): Set<string> {
  return new Set(DEMO_CONFIG.appData.map((item) => item[field]).filter((value) => value !== undefined));
}

/**
 * Each thing production lacks in `config`, at its JSON path. `downloadOrigin` is the environment's
 * `DOWNLOAD_ORIGIN`, where APKs come from until the browser finds a reachable domain.
 */
export function productionGaps(config: LanderConfig, downloadOrigin: string | undefined): ConfigProblem[] {
  const gaps: ConfigProblem[] = [];
  config.appData.forEach((item, index) => {
    const at = `$.appData[${index}]`;
    if (item.plat !== 1 && !item.app_store_id) {
      gaps.push({ path: `${at}.app_store_id`, message: 'missing: production needs the app’s own App Store id' });
    }
    if (item.plat !== 2 && !item.package) {
      gaps.push({ path: `${at}.package`, message: 'missing: production needs the app’s own package name' });
    }
    for (const field of IDENTITY_FIELDS) {
      const value = item[field];
      if (value !== undefined && demoValues(field).has(value)) {
        gaps.push({ path: `${at}.${field}`, message: `is the demo’s (${value}): production needs the app’s own` });
      }
    }
  });
  config.domains.forEach((domain, index) => {
    if (isPlaceholderOrigin(domain)) {
      gaps.push({ path: `$.domains[${index}]`, message: `${domain} is a placeholder host, not a download origin` });
    }
  });
  const servesApks = config.appData.some((item) => item.download_url);
  const ownDomain = config.domains.some((domain) => !isPlaceholderOrigin(domain));
  if (servesApks && !ownDomain && isPlaceholderOrigin(downloadOrigin)) {
    gaps.push({
      path: '$.domains',
      message: `no download origin of the operator’s: DOWNLOAD_ORIGIN is ${downloadOrigin ?? 'not set'}; list the origin the APKs are served from`,
    });
  }
  const demoLinks = DEMO_CONFIG.links;
  for (const key of ['universal_link_domain', 'android_package'] as const) {
    if (config.links[key] !== undefined && config.links[key] === demoLinks[key]) {
      gaps.push({ path: `$.links.${key}`, message: `is the demo’s (${demoLinks[key]}): production needs its own` });
    }
  }
  for (const key of ['apple_app_ids', 'android_sha256', 'harmony_app_ids'] as const) {
    if (config.links[key].some((value) => demoLinks[key].includes(value))) {
      gaps.push({ path: `$.links.${key}`, message: 'holds the demo’s: production needs its own' });
    }
  }
  return gaps;
}
