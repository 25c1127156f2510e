/**
 * The visitor's consent as the page can read it (docs/privacy.md, "Consent"): the browser's Global
 * Privacy Control, and the TCF and GPP strings a consent platform left in the page's query
 * (`gdpr_consent`, `gpp`, as the IAB's URL macros pass them; `gdpr=0` says GDPR does not apply) or in
 * a cookie of the same name (TCF's also as `euconsent-v2`). Read on the device, after the page
 * was served: the kept page never varies on consent. The tap sends it with its click; the worker
 * decides what it stops.
 */
import type { ConsentReport } from '../../shared/consent.ts';

/** A cookie's value, percent-decoded when it can be. */
function cookie(name: string): string | undefined {
  const value = document.cookie.match(new RegExp(`(?:^|;\\s*)${name}=([^;]*)`))?.[1];
  try {
    return value === undefined ? undefined : decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** What this page view says of the visitor's consent; `undefined` when nothing does. */
export function pageConsent(): ConsentReport | undefined {
  const query = new URLSearchParams(location.search);
  const report: ConsentReport = {};
  if ((navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true) report.gpc = true;
  const tcf =
    query.get('gdpr') === '0' ? null : (query.get('gdpr_consent') ?? cookie('gdpr_consent') ?? cookie('euconsent-v2'));
  const gpp = query.get('gpp') ?? cookie('gpp');
  // Longer than the worker reads is cut, and so unreadable: it stops everything rather than nothing.
  if (tcf) report.tcf = tcf.slice(0, 4096);
  if (gpp) report.gpp = gpp.slice(0, 4096);
  return Object.keys(report).length > 0 ? report : undefined;
}
