/**
 * The about block and the footer's filing numbers as markup (docs/screens.md#about-the-app), written
 * here rather than by a component in the browser bundle: they never change after the page is made,
 * and the initial JavaScript of `/` stays within its budget (docs/benchmarks.md). Every text and
 * attribute is escaped.
 */

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** One element: `attributes` escaped, `children` already markup. */
function el(tag: string, attributes: Record<string, string | number | null>, ...children: string[]): string {
  const attrs = Object.entries(attributes)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => ` ${name}="${escapeHtml(String(value))}"`)
    .join('');
  return `<${tag}${attrs}>${children.join('')}</${tag}>`;
}

const text = (value: string): string => escapeHtml(value);

export interface AboutBlockView {
  heading: string;
  facts: { label: string; value: string }[];
  description: string | null;
  screenshotsHeading: string;
  screenshots: { src: string; alt: string; width: number; height: number }[];
  privacy: { label: string; href: string } | null;
  permissionsHeading: string;
  permissions: { name: string; purpose: string }[];
}

/** A `<dl>` of labelled facts or permissions. */
function pairs(className: string | null, items: { term: string; detail: string }[]): string {
  return el(
    'dl',
    { class: className },
    ...items.map((i) => el('div', {}, el('dt', {}, text(i.term)), el('dd', {}, text(i.detail)))),
  );
}

/** Screenshots sized by their attributes (the box is reserved before they load) and loaded lazily. */
function screenshots(view: AboutBlockView): string {
  if (view.screenshots.length === 0) return '';
  const items = view.screenshots.map((s) => {
    const img = `<img src="${escapeHtml(s.src)}" alt="${escapeHtml(s.alt)}" width="${s.width}" height="${s.height}" loading="lazy" decoding="async">`;
    return el('li', {}, img);
  });
  return el(
    'div',
    { class: 'about-screenshots', role: 'group', 'aria-label': view.screenshotsHeading },
    el('ul', {}, ...items),
  );
}

/** The inside of the about block's `<section>`. */
export function aboutBlockMarkup(view: AboutBlockView): string {
  const facts = pairs(
    'about-facts',
    view.facts.map((f) => ({ term: f.label, detail: f.value })),
  );
  const privacy = view.privacy
    ? el(
        'p',
        { class: 'about-privacy' },
        el('a', { href: view.privacy.href, rel: 'noopener', target: '_blank' }, text(view.privacy.label)),
      )
    : '';
  const permissions =
    view.permissions.length > 0
      ? el(
          'div',
          { class: 'about-permissions' },
          el('h3', {}, text(view.permissionsHeading)),
          pairs(
            null,
            view.permissions.map((p) => ({ term: p.name, detail: p.purpose })),
          ),
        )
      : '';
  const description = view.description ? el('p', { class: 'about-description' }, text(view.description)) : '';
  return (
    el('h2', { id: 'about-heading' }, text(view.heading)) +
    facts +
    description +
    screenshots(view) +
    privacy +
    permissions
  );
}

/** The block's `<section>` and the footer, each where there is one. */
export function aboutMarkup(block: string | null, filings: string | null): string {
  const section = block ? el('section', { class: 'about-app', 'aria-labelledby': 'about-heading' }, block) : '';
  return section + (filings ? el('footer', { class: 'site-filings' }, filings) : '');
}

/** The inside of the footer: the ICP number linking to MIIT's lookup, and the app's filing number. */
export function filingsMarkup(icp: { text: string; href: string } | null, app: string | null): string {
  const icpLink = icp ? el('a', { href: icp.href, rel: 'noopener', target: '_blank' }, text(icp.text)) : '';
  return icpLink + (app ? el('span', {}, text(app)) : '');
}
