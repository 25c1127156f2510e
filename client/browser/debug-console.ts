/**
 * The debug console (docs/builds.md): vConsole 3.15.1 keeping up to 1000 network entries. A tool,
 * not product behaviour: this module is fetched only when the console is asked for, and vConsole's
 * own file (its UMD build, emitted as an asset) only after that, as a classic same-origin script —
 * so none of it weighs on the app's chunks.
 * vConsole injects its stylesheet as an inline <style>, which the page's CSP refuses
 * (`style-src 'self'`); its text is adopted as a constructed stylesheet instead, which the CSP
 * does not govern. Its command line needs `eval`, which the CSP keeps refusing.
 */
import type VConsole from 'vconsole';
import vconsoleUrl from 'vconsole/dist/vconsole.min.js?url';

export const MAX_NETWORK_ENTRIES = 1000;

declare global {
  interface Window {
    VConsole?: typeof VConsole;
  }
}

let opened: Promise<VConsole> | undefined;

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`The debug console did not load from ${src}`));
    document.head.appendChild(script);
  });
}

async function open(): Promise<VConsole> {
  if (!window.VConsole) await loadScript(vconsoleUrl);
  const Console = window.VConsole;
  if (!Console) throw new Error('The debug console script defined no VConsole');
  const vconsole = new Console({ network: { maxNetworkNumber: MAX_NETWORK_ENTRIES } });
  // The app itself never uses inline <style> (the CSP refuses it): every one here is vConsole's.
  const sheets = [...document.querySelectorAll('style')].map((style) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(style.textContent ?? '');
    return sheet;
  });
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, ...sheets];
  return vconsole;
}

/** Opens the debug console once; later calls get the same one. */
export function openDebugConsole(): Promise<VConsole> {
  opened ??= open();
  return opened;
}
