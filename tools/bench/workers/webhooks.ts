/**
 * The webhook benchmark's worker (tools/bench/webhooks.ts): Lander's own queue handler (fan-out and
 * delivery, worker/queues.ts) on a webhook queue, and two calls for the bench: `/setup` makes the
 * tables and an endpoint, `/emit?n=N` queues N app events as the funnel's counting points do.
 */
import type { AppEventData } from '../../../shared/webhooks.ts';
import { handleQueue } from '../../../worker/queues.ts';
import { eventMessage } from '../../../worker/webhooks/emit.ts';
import { createEndpoint } from '../../../worker/webhooks/endpoints.ts';

const data = (n: number): AppEventData => ({
  app: 'bench.app',
  install: 'bench-install-hash-0001',
  name: 'bench',
  value: n,
  matched: true,
  campaign: { channel: 'bench' },
  country: 'NL',
});

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/setup') {
      const statements = (await request.text()).split(/;\s*\n/).filter((text) => text.trim());
      for (const statement of statements) await env.FUNNEL_DB.prepare(statement).run();
      const made = await createEndpoint(
        env.FUNNEL_DB,
        'default',
        { url: url.searchParams.get('url') ?? '', events: ['event'] },
        // The bench measures delivery, not the audit log: the endpoint is stored without an entry.
        (writes) => env.FUNNEL_DB.batch(writes),
      );
      return Response.json(made);
    }
    if (url.pathname === '/emit') {
      const n = Number(url.searchParams.get('n') ?? '1');
      const messages = Array.from({ length: n }, (_, at) => ({ body: eventMessage('event', data(at)) }));
      for (let at = 0; at < messages.length; at += 100) await env.WEBHOOK_QUEUE.sendBatch(messages.slice(at, at + 100));
      return new Response(null, { status: 204 });
    }
    return new Response('not found', { status: 404 });
  },
  queue: handleQueue,
} satisfies ExportedHandler<Env>;
