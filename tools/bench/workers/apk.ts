/**
 * The stamped-APK benchmark's worker (tools/bench/apk-stamping.ts): Lander's own download route
 * beside a plain pass-through of the same R2 object, so both run on one workerd with one bucket.
 */
import { Hono } from 'hono';
import { apkDownload } from '../../../worker/apk/routes.ts';
import type { AppEnv } from '../../../worker/env.ts';

const app = new Hono<AppEnv>();
app.route('/dl', apkDownload);
app.get('/plain/:file', async (c) => {
  const object = await c.env.APK_PARENTS.get(c.req.param('file'));
  if (!object) return c.text('no such object', 404);
  // As a plain R2 download is usually written: the body as is (R2 gives it its length).
  return new Response(object.body);
});

export default app;
