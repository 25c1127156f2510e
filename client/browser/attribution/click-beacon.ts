/**
 * Every tap on a primary action (docs/attribution.md): a click id made here, the carrier that names
 * it and the page's campaign put where the app will look — the link the tap follows (Play referrer,
 * App Linking URL) and, where the page says so, the clipboard — and the click reported to the worker
 * with what only the browser knows (screen, time zone, languages, high-entropy hints).
 * The click id is one the worker issued for this page (`CLICK_IDS_PATH`), fetched as the page starts;
 * a tap made before any arrived makes its own, which credits once the worker records the tap.
 * Part of the entry chunk and started before hydration, so a tap as soon as the button paints
 * carries its carrier; listens on the document before the open-app watcher, so a fallback it fills
 * in is the one the watcher follows.
 */

import { adClickOf } from '../../../shared/ad-clicks.ts';
import {
  type AttributionView,
  CARRIER_PATH,
  CLICK_ID,
  CLICK_IDS_PATH,
  CLICK_PATH,
  type ClickAction,
  type ClickBody,
  type ClickIdsAnswer,
  carrierOf,
  fillCarrier,
  newClickId,
} from '../../../shared/attribution.ts';
import { readClientHints } from '../client-hints.ts';
import { pageConsent } from '../page-consent.ts';

/** The links a tap attributes: open-app links (`data-open`) and download buttons (`data-kind`). */
const PRIMARY_ACTION = 'a[data-open], a[data-kind]';

/** What the tap on `link` was: the guide when the page showed it instead of following the link. */
function actionOf(link: HTMLElement, prevented: boolean): ClickAction {
  const { open, kind } = link.dataset;
  if (prevented || open === 'guide') return 'guide';
  if (open) return 'open';
  return kind === 'apk' ? 'download' : 'store';
}

/** Writes `text` to the clipboard inside the tap; the old way where the async API is missing. */
function copyText(text: string): void {
  if (navigator.clipboard?.writeText) {
    navigator.clipboard.writeText(text).catch(() => copyBySelection(text));
    return;
  }
  copyBySelection(text);
}

function copyBySelection(text: string): void {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.cssText = 'position:fixed;top:0;left:0;opacity:0';
  document.body.append(area);
  area.select();
  try {
    document.execCommand('copy');
  } catch {
    // Nothing else to try: the app falls back to the other carriers.
  }
  area.remove();
}

/**
 * Sends `body` to the app's click API (under `base`, docs/routes.md#apps) so that it survives the page
 * being left at once (a store link, an app opening).
 */
function sendClick(body: string, base = ''): void {
  if (navigator.sendBeacon?.(`${base}${CLICK_PATH}`, body)) return;
  void fetch(`${base}${CLICK_PATH}`, {
    method: 'POST',
    body,
    keepalive: true,
    headers: { 'content-type': 'application/json' },
  }).catch(() => {});
}

/** The ids the worker issued for this page's next taps, or none when it could not be asked. */
async function fetchClickIds(base = ''): Promise<string[]> {
  const response = await fetch(`${base}${CLICK_IDS_PATH}`, { credentials: 'same-origin', cache: 'no-store' });
  if (!response.ok) return [];
  const { clickIds } = (await response.json()) as Partial<ClickIdsAnswer>;
  return Array.isArray(clickIds) ? clickIds.filter((id) => typeof id === 'string' && CLICK_ID.test(id)) : [];
}

/**
 * A supply of click ids: the worker's, asked for again while one is left so the next tap has one; a
 * browser-made id when none has arrived yet (a tap at once) or the worker cannot be reached.
 */
export function clickIdSupply(fetchIds: () => Promise<string[]> = fetchClickIds): () => string {
  const pool: string[] = [];
  let asking = false;
  const ask = () => {
    if (asking) return;
    asking = true;
    fetchIds()
      .then((ids) => pool.push(...ids))
      .catch(() => {})
      .finally(() => {
        asking = false;
      });
  };
  ask();
  return () => {
    const id = pool.shift();
    if (pool.length <= 1) ask();
    return id ?? newClickId();
  };
}

type Hints = NonNullable<ClickBody['hints']>;

/**
 * The high-entropy hints Chrome gives on request (client-hints.ts), filled in as they arrive: read
 * ahead of any tap, since a tap cannot wait.
 */
function readHints(): Hints {
  const hints: Hints = {};
  void readClientHints().then(({ platformVersion, model }) => {
    if (platformVersion) hints.platformVersion = platformVersion;
    if (model) hints.model = model;
  });
  return hints;
}

export interface ClickWatchOptions {
  attribution: AttributionView;
  /** The page's campaign token. */
  token: string | undefined;
  /** The app's base path on this host (`/@notes`, or ''): its click API and carrier links are under it. */
  base?: string;
  visitorId(): string | null;
  copy?(text: string): void;
  send?(body: string): void;
  /** The next tap's click id (`clickIdSupply`). */
  nextClickId?(): string;
}

export function watchClicks({
  attribution,
  token,
  base = '',
  visitorId,
  copy = copyText,
  send = (body) => sendClick(body, base),
  nextClickId = clickIdSupply(() => fetchClickIds(base)),
}: ClickWatchOptions): { afterPageListeners(): void } {
  const hints = readHints();
  // A tap whose report waits for the page's own listeners (`afterPageListeners`), and its event.
  let pending: { body: ClickBody; link: HTMLAnchorElement; event: Event } | null = null;
  let waitForPage = false;
  const report = () => {
    if (!pending) return;
    const { body, link, event } = pending;
    pending = null;
    send(JSON.stringify({ ...body, action: actionOf(link, event.defaultPrevented) }));
  };
  // The hrefs the worker rendered: a second tap fills the template again with its own carrier.
  const rendered = new WeakMap<HTMLAnchorElement, { href: string; fallback?: string; apk?: string }>();
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>(PRIMARY_ACTION) : null;
    if (!link) return;
    const clickId = nextClickId();
    const carrier = carrierOf(clickId, token);
    const plain = rendered.get(link) ?? {
      href: link.getAttribute('href') ?? '',
      fallback: link.dataset.fallback,
      apk: link.dataset.apk,
    };
    rendered.set(link, plain);
    // An APK's href follows the reachable download domain, so its template is keyed by its path.
    const apkTemplate = plain.apk ? attribution.links[plain.apk] : undefined;
    const hrefTemplate = attribution.links[plain.href] ?? (link.dataset.kind ? apkTemplate : undefined);
    // Filled even if a later listener shows the guide instead: an href not followed does no harm.
    if (hrefTemplate) link.href = fillCarrier(hrefTemplate, carrier);
    const fallbackTemplate = plain.fallback ? (attribution.links[plain.fallback] ?? apkTemplate) : undefined;
    if (fallbackTemplate) link.dataset.fallback = fillCarrier(fallbackTemplate, carrier);
    // A stamped APK is on the page's own host: the open-app watcher must not move it to a download domain.
    if (fallbackTemplate && fallbackTemplate === apkTemplate) delete link.dataset.apk;
    if (attribution.copy) copy(`${location.origin}${base}${CARRIER_PATH}${carrier}`);
    const body: ClickBody = {
      clickId,
      action: actionOf(link, false),
      screen: { w: screen.width, h: screen.height, dpr: devicePixelRatio },
      tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
      langs: (navigator.languages?.length ? navigator.languages : [navigator.language]).slice(0, 10),
    };
    if (token) body.d = token;
    if (attribution.link) body.link = attribution.link;
    if (attribution.variant) body.variant = attribution.variant;
    const visitor = visitorId();
    if (visitor) body.visitorId = visitor;
    if (hints.platformVersion || hints.model) body.hints = { ...hints };
    const consent = pageConsent();
    if (consent) body.consent = consent;
    // The ad network's click id, when the visitor came from an ad (docs/conversions.md#ad-click-ids).
    const ad = adClickOf(new URLSearchParams(location.search));
    if (ad) body.ad = ad;
    report();
    pending = { body, link, event };
    // Before the page's listeners exist nothing can show the guide instead: reported at once.
    // After, reported once they have had the tap, or in the next task should one stop it.
    if (!waitForPage) report();
    else setTimeout(report, 0);
  });
  document.documentElement.dataset.taps = 'ready';
  return {
    /**
     * Called once the page's own click listeners are on the document (React's, after `hydrateRoot`):
     * a tap is then reported after them, so whether one showed the guide instead
     * (`defaultPrevented`) decides its action.
     */
    afterPageListeners() {
      waitForPage = true;
      document.addEventListener('click', report);
    },
  };
}
