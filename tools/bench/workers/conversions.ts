/**
 * The conversions benchmark's worker (tools/bench/conversions.ts): Lander's own queue handler
 * (worker/queues.ts: the conversion queue's fan-out and delivery) and two calls for the bench:
 * `/setup` makes the tables and a postback destination, `/emit?n=N` queues N installs as the
 * conversions' listener does, each dated now.
 */
import { createStatement } from '../../../worker/conversions/destinations.ts';
import type { ConversionEventMessage } from '../../../worker/conversions/messages.ts';
import { handleQueue } from '../../../worker/queues.ts';

let serial = 0;

const install = (): ConversionEventMessage => {
  serial += 1;
  const id = `bench${serial.toString(36).padStart(8, '0')}`;
  return {
    k: 'event',
    tenant: 'default',
    event: {
      id,
      kind: 'install',
      name: 'install',
      at: Date.now(),
      app: 'bench.app',
      platform: 'android',
      install: `h${id}`,
      ad: { clickid: `oe-${id}` },
      clickedAt: Date.now() - 60_000,
      country: 'NL',
    },
  };
};

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/setup') {
      const statements = (await request.text()).split(/;\s*\n/).filter((text) => text.trim());
      for (const statement of statements) await env.FUNNEL_DB.prepare(statement).run();
      const target = `${url.searchParams.get('url') ?? ''}?at={timestamp_ms}&id={event_id}&click={clickid}`;
      const { statement } = createStatement(
        env.FUNNEL_DB,
        'default',
        { platform: 'postback', settings: { url: target } },
        Date.now(),
      );
      await statement.run();
      return new Response(null, { status: 204 });
    }
    if (url.pathname === '/emit') {
      const n = Number(url.searchParams.get('n') ?? '1');
      const messages = Array.from({ length: n }, () => ({ body: install() }));
      for (let at = 0; at < messages.length; at += 100)
        await env.CONVERSION_QUEUE.sendBatch(messages.slice(at, at + 100));
      return new Response(null, { status: 204 });
    }
    return new Response('not found', { status: 404 });
  },
  queue: handleQueue,
} satisfies ExportedHandler<Env>;
