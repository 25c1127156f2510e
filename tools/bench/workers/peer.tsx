/**
 * The peers' plain page (docs/benchmarks.md): what a naive Hono + React landing page costs on the same
 * workerd — one `renderToString` of a ~1.3 kB page per request, nothing kept, its only input the
 * agent (to name the store). Bundled with its packages by esbuild into dist/bench (tools/bench/serve.ts).
 */
import { Hono } from 'hono';
import { renderToString } from 'react-dom/server';

interface PageProps {
  store: 'App Store' | 'Google Play';
}

function Page({ store }: PageProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Lander peer — get the app</title>
        <meta name="description" content="A plain landing page rendered on every request, for comparison." />
        <style>
          {
            'body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;max-width:36rem}a.button{display:inline-block;padding:12px 20px;border-radius:8px;background:#0b57d0;color:#fff;text-decoration:none}footer{margin-top:32px;color:#555;font-size:14px}'
          }
        </style>
      </head>
      <body>
        <header>
          <img src="/logo.png" alt="" width="64" height="64" />
          <h1>Get the app</h1>
        </header>
        <main>
          <p>Everything you need in one place: fast, private, and free to start. Install it in seconds.</p>
          <p>
            Thousands of people use it every day to plan, share and keep track of what matters to them, at home and at
            work. Your data stays on your device unless you choose to sync it.
          </p>
          <ul>
            <li>Works offline</li>
            <li>Syncs across your devices</li>
            <li>No account needed to try</li>
          </ul>
          <p>
            <a className="button" href="/download">
              Get it on {store}
            </a>
          </p>
        </main>
        <footer>
          <a href="/privacy">Privacy</a> · <a href="/terms">Terms</a> · © Lander peer
        </footer>
      </body>
    </html>
  );
}

const app = new Hono();
app.get('*', (c) => {
  const store = /iPhone|iPad|iPod|Mac OS X/.test(c.req.header('user-agent') ?? '') ? 'App Store' : 'Google Play';
  return c.html(`<!DOCTYPE html>${renderToString(<Page store={store} />)}`);
});

export default app;
