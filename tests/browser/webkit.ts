/**
 * Safari's engine for the browser tests: Debian's WebKitGTK, driven over W3C WebDriver (HTTP and
 * JSON, spoken with `fetch`). `WebKitWebDriver` starts `MiniBrowser --automation`; MiniBrowser needs
 * an X display, so a private Xvfb is started when none is set. WebKitGTK has no headless mode, no
 * touch emulation and no window narrower than 447 px, and it hangs instead of failing when it
 * cannot open a window: every step that waits on it has a deadline.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { freePort } from './global-setup.ts';

export const WEBDRIVER = process.env.WEBKIT_WEBDRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
const INSTALL = 'npm run prerequisites installs them: webkit2gtk-driver, xvfb';
/** How long MiniBrowser may take to open its first window before the session counts as failed. */
const SESSION_TIMEOUT_MS = 45_000;
/** WebKitGTK windows are never narrower than this. */
export const MIN_WIDTH = 447;

/** MiniBrowser of Debian's webkit2gtk (`/usr/lib/<arch>/webkit2gtk-4.x/MiniBrowser`). */
function miniBrowser(): string | undefined {
  if (process.env.MINIBROWSER_PATH) return process.env.MINIBROWSER_PATH;
  const lib = '/usr/lib';
  for (const arch of existsSync(lib) ? readdirSync(lib) : []) {
    const dir = `${lib}/${arch}`;
    if (!arch.includes('linux-gnu')) continue;
    for (const name of readdirSync(dir)
      .filter((n) => n.startsWith('webkit2gtk-4.'))
      .sort()
      .reverse()) {
      if (existsSync(`${dir}/${name}/MiniBrowser`)) return `${dir}/${name}/MiniBrowser`;
    }
  }
  return undefined;
}

/** Polls `check` until it gives a value or `ms` pass. */
async function until<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A private X display: Xvfb picks a free display number and writes it to fd 3. */
async function startXvfb(): Promise<{ display: string; child: ChildProcess }> {
  if (!existsSync('/usr/bin/Xvfb')) throw new Error(`WebKit tests need Xvfb (${INSTALL})`);
  const child = spawn('/usr/bin/Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('Xvfb did not start within 10 s')), 10_000);
    child.stdio[3]?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${out.trim()}`);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited with ${code}`));
    });
  });
  return { display, child };
}

export interface Element {
  click(): Promise<void>;
  attribute(name: string): Promise<string | null>;
  text(): Promise<string>;
}

/** One WebDriver session in MiniBrowser. */
export interface WebKitSession {
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  /** Runs `script` (a function body; `arguments` holds `args`) in the page and returns its result. */
  run<T>(script: string, ...args: unknown[]): Promise<T>;
  /** Polls `script` in the page until it returns a truthy value (or `ms` pass) and returns that value. */
  waitFor<T>(what: string, script: string, ms?: number): Promise<T>;
  find(selector: string): Promise<Element>;
  /** The window's visible part as a PNG. */
  screenshot(): Promise<Buffer>;
  close(): Promise<void>;
}

/** The key of a web element reference in WebDriver's JSON. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/**
 * WebKit for the calling test file: WebKitWebDriver (and Xvfb when no display is set) started before
 * its tests and stopped after them. `session(userAgent)` opens MiniBrowser with that agent.
 */
export function webkitForThisFile(): { session(userAgent: string, height?: number): Promise<WebKitSession> } {
  const children: ChildProcess[] = [];
  let driver = '';
  let display = process.env.DISPLAY ?? '';
  const sessions: WebKitSession[] = [];

  beforeAll(async () => {
    const binary = miniBrowser();
    if (!existsSync(WEBDRIVER) || !binary)
      throw new Error(`WebKit tests need WebKitWebDriver and MiniBrowser (${INSTALL})`);
    if (!display) {
      const xvfb = await startXvfb();
      children.push(xvfb.child);
      display = xvfb.display;
    }
    const port = await freePort();
    const child = spawn(WEBDRIVER, [`--port=${port}`], { env: { ...process.env, DISPLAY: display }, stdio: 'ignore' });
    children.push(child);
    driver = `http://127.0.0.1:${port}`;
    await until('WebKitWebDriver did not answer', 10_000, async () => {
      const status = await fetch(`${driver}/status`).catch(() => undefined);
      return status?.ok ? true : undefined;
    });
  }, 30_000);

  // WebKitWebDriver serves one session at a time: a failed test must not leave its session open.
  afterEach(async () => {
    for (const session of sessions.splice(0)) await session.close().catch(() => {});
  });
  afterAll(() => {
    for (const child of children.reverse()) child.kill();
  });

  async function call<T>(method: string, path: string, body?: unknown, timeout = 60_000): Promise<T> {
    const res = await fetch(`${driver}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeout),
    });
    const { value } = (await res.json()) as { value: T & { error?: string; message?: string } };
    if (!res.ok) throw new Error(`WebDriver ${method} ${path}: ${value?.error} ${value?.message}`);
    return value;
  }

  return {
    async session(userAgent, height = 844) {
      const binary = miniBrowser() ?? '';
      const created = await call<{ sessionId: string }>(
        'POST',
        '/session',
        {
          capabilities: {
            alwaysMatch: {
              'webkitgtk:browserOptions': { binary, args: ['--automation', `--user-agent=${userAgent}`] },
            },
          },
        },
        SESSION_TIMEOUT_MS,
      ).catch((error: unknown) => {
        if (!(error instanceof DOMException && error.name === 'TimeoutError')) throw error;
        throw new Error(`MiniBrowser did not open a window on display ${display} within ${SESSION_TIMEOUT_MS} ms`);
      });
      const at = `/session/${created.sessionId}`;
      await call('POST', `${at}/window/rect`, { width: MIN_WIDTH, height });
      const element = (id: string): Element => ({
        click: () => call('POST', `${at}/element/${id}/click`, {}),
        attribute: (name) => call('GET', `${at}/element/${id}/attribute/${name}`),
        text: () => call('GET', `${at}/element/${id}/text`),
      });
      let closed = false;
      const session: WebKitSession = {
        goto: (url) => call('POST', `${at}/url`, { url }),
        url: () => call('GET', `${at}/url`),
        run: (script, ...args) => call('POST', `${at}/execute/sync`, { script, args }),
        waitFor: (what, script, ms = 30_000) =>
          until(`WebKit: ${what}`, ms, async () => (await session.run(script)) || undefined),
        async find(selector) {
          const found = await call<Record<string, string>>('POST', `${at}/element`, {
            using: 'css selector',
            value: selector,
          });
          const id = found[ELEMENT];
          if (!id) throw new Error(`WebKit: no element reference for ${selector}`);
          return element(id);
        },
        screenshot: async () => Buffer.from(await call<string>('GET', `${at}/screenshot`), 'base64'),
        async close() {
          if (closed) return;
          closed = true;
          await call('DELETE', at);
        },
      };
      sessions.push(session);
      return session;
    },
  };
}

/**
 * Console errors from the first script on: WebDriver (classic) has no init scripts, so a front
 * server on another port forwards every request to `upstream` and puts this recorder first in each
 * page's <head>, with the page's own CSP nonce (a kept page has none: then with one of its own, added
 * to the page's policy). It removes its own element at once, so hydration
 * finds the document exactly as the worker sent it.
 */
const RECORDER = `(() => {
  const errors = [];
  window.__errors = errors;
  const original = console.error;
  console.error = function (...args) { errors.push(args.map(String).join(' ')); return original.apply(this, args); };
  addEventListener('error', (event) => errors.push('uncaught: ' + event.message));
  addEventListener('unhandledrejection', (event) => errors.push('unhandled: ' + String(event.reason)));
  document.currentScript.remove();
})();`;

/** Starts the recording front server for `upstream`; resolves with its URL and a stop function. */
export async function recordingFront(upstream: string): Promise<{ url: string; stop(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'accept-encoding', 'connection'].includes(name))
          headers.set(name, value);
      }
      const answer = await fetch(`${upstream}${req.url}`, { method: req.method, headers, redirect: 'manual' });
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of answer.headers) {
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'set-cookie'].includes(name))
          out[name] = value;
      }
      const cookies = answer.headers.getSetCookie();
      if (cookies.length > 0) out['set-cookie'] = cookies;
      let body = Buffer.from(await answer.arrayBuffer());
      if ((answer.headers.get('content-type') ?? '').startsWith('text/html')) {
        const csp = answer.headers.get('content-security-policy') ?? '';
        let nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
        if (!nonce) {
          // A kept page carries no nonce (docs/security.md): the recorder brings its own into the policy.
          nonce = randomBytes(16).toString('base64');
          out['content-security-policy'] = csp.replace("script-src 'self'", `script-src 'nonce-${nonce}' 'self'`);
        }
        body = Buffer.from(
          body
            .toString('utf8')
            .replace(/<head[^>]*>/, (head) => `${head}<script nonce="${nonce}">${RECORDER}</script>`),
        );
      }
      res.writeHead(answer.status, out).end(body);
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
