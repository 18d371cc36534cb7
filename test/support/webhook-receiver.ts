import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

/** Answers a request: status, optional headers and body. Default: 200 "ok". */
export type ReceiverBehaviour = (
  request: ReceivedWebhook,
  countForId: number,
) => { status: number; headers?: Record<string, string>; body?: string; delayMilliseconds?: number };

/** A local webhook receiver on 127.0.0.1 that records every request. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Requests that arrived and are not answered yet (slow answers). */
  inFlight = 0;
  behaviour: ReceiverBehaviour = () => ({ status: 200, body: 'ok' });
  private readonly waiters: { check: () => boolean; resolve: () => void }[] = [];
  private readonly held = new Set<() => void>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | null = null;
    const server = createServer((request, response) => receiver?.handle(request, response));
    receiver = new WebhookReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** Requests to one path (each endpoint of a test gets its own path). */
  at(path: string): ReceivedWebhook[] {
    return this.received.filter((entry) => entry.path === path);
  }

  /** Resolves once the condition holds (re-checked on every request); the test timeout bounds it. */
  until(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ check, resolve }));
  }

  /** Answers every delayed request now. */
  releaseHeld(): void {
    const held = [...this.held];
    this.held.clear();
    for (const answer of held) answer();
  }

  close(): Promise<void> {
    this.releaseHeld();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry: ReceivedWebhook = {
        path: request.url ?? '/',
        headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      const countForId = this.received.filter((other) => other.headers['webhook-id'] === entry.headers['webhook-id'] && other.path === entry.path).length + 1;
      const answer = this.behaviour(entry, countForId);
      const respond = () => {
        response.writeHead(answer.status, answer.headers ?? {});
        response.end(answer.body ?? '');
        this.received.push(entry);
        this.inFlight -= 1;
        this.notify();
      };
      this.inFlight += 1;
      if (answer.delayMilliseconds) {
        const timer = setTimeout(() => {
          this.held.delete(early);
          respond();
        }, answer.delayMilliseconds);
        const early = () => {
          clearTimeout(timer);
          respond();
        };
        this.held.add(early);
        this.notify();
      } else {
        respond();
      }
    });
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.check()) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }
}

/** Verifies with the independent standardwebhooks implementation; throws when the signature is wrong. */
export function verifyWebhook(secret: string, received: ReceivedWebhook): unknown {
  return new Webhook(secret).verify(received.body, {
    'webhook-id': received.headers['webhook-id'],
    'webhook-timestamp': received.headers['webhook-timestamp'],
    'webhook-signature': received.headers['webhook-signature'],
  });
}
