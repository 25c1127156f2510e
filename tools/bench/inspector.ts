/**
 * A Chrome DevTools Protocol session on one of workerd's workers (`workerd serve --inspector-addr`,
 * tools/bench/serve.ts' `inspectorPort`): request-path.ts sets breakpoints through it, the bench reads
 * the page isolate's V8 heap.
 */

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/** A Chrome DevTools Protocol session over one WebSocket. */
export class Inspector {
  #next = 0;
  readonly #pending = new Map<number, Pending>();
  readonly #handlers = new Map<string, (params: unknown) => void>();
  readonly #socket: WebSocket;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as {
        id?: number;
        method?: string;
        params?: unknown;
        result?: unknown;
        error?: { message: string };
      };
      const pending = message.id === undefined ? undefined : this.#pending.get(message.id);
      if (pending && message.id !== undefined) {
        this.#pending.delete(message.id);
        if (message.error) pending.reject(new Error(message.error.message));
        else pending.resolve(message.result);
      } else if (message.method) {
        this.#handlers.get(message.method)?.(message.params);
      }
    });
    socket.addEventListener('close', () => {
      for (const pending of this.#pending.values()) pending.reject(new Error('inspector closed'));
      this.#pending.clear();
    });
  }

  static open(url: string): Promise<Inspector> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.addEventListener('open', () => resolve(new Inspector(socket)), { once: true });
      socket.addEventListener('error', () => reject(new Error(`cannot open the inspector at ${url}`)), { once: true });
    });
  }

  /** Opens a session on one worker of workerd's inspector (`inspectorUrl` lists them at /json/list). */
  static async forWorker(inspectorUrl: string, worker: string): Promise<Inspector> {
    const targets = (await (await fetch(`${inspectorUrl}/json/list`)).json()) as {
      id: string;
      webSocketDebuggerUrl: string;
    }[];
    const target = targets.find(({ id }) => id === worker);
    if (!target) throw new Error(`workerd's inspector lists no ${worker} worker: ${JSON.stringify(targets)}`);
    return Inspector.open(target.webSocketDebuggerUrl);
  }

  send<T>(method: string, params: object = {}): Promise<T> {
    const id = ++this.#next;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.#socket.send(JSON.stringify({ id, method, params }));
    });
  }

  on(event: string, handler: (params: unknown) => void): void {
    this.#handlers.set(event, handler);
  }

  close(): void {
    this.#socket.close();
  }
}
