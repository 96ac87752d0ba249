/**
 * The dashboard's live stream (server-sent events at /_dashboard/events): each request answered
 * (`request`, its summary), each delivery attempt (`delivery`), and `changed` when any table was
 * written (at most every CHANGE_COALESCE_MS), after which the page reloads the view it shows.
 * Nothing is subscribed while no page listens.
 */
import type { ServerResponse } from 'node:http';
import type { EmulatorContext } from '../kernel/context.js';
import { maskRecord } from './redact.js';
import { requestSummary } from './request-view.js';

const CHANGE_COALESCE_MS = 250;
/** A comment line this often keeps proxies and idle timers from closing the stream. */
const HEARTBEAT_MS = 15_000;

export class LiveStream {
  private readonly emu: EmulatorContext;
  private readonly clients = new Set<ServerResponse>();
  private unsubscribe: (() => void) | undefined;
  private changeTimer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(emu: EmulatorContext) {
    this.emu = emu;
  }

  /** Called on every table write: cheap when nobody listens. */
  changed(): void {
    if (this.clients.size === 0 || this.changeTimer) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      this.send('changed', { now: this.emu.iso() });
    }, CHANGE_COALESCE_MS);
    this.changeTimer.unref();
  }

  open(res: ServerResponse, headers: Record<string, string>): void {
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8' });
    res.write(`retry: 1000\n\n`);
    this.clients.add(res);
    res.on('close', () => {
      this.clients.delete(res);
      if (this.clients.size === 0) this.stop();
    });
    if (!this.unsubscribe) this.start();
  }

  private start(): void {
    const requests = this.emu.requests.subscribe((entry) => this.send('request', requestSummary(entry)));
    const deliveries = this.emu.outbox.deliveries.subscribe((record) => this.send('delivery', maskRecord(record)));
    this.heartbeat = setInterval(() => {
      for (const client of this.clients) client.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
    this.unsubscribe = () => {
      requests();
      deliveries();
    };
  }

  private stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.heartbeat);
    clearTimeout(this.changeTimer);
    this.changeTimer = undefined;
  }

  private send(event: string, data: unknown): void {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const client of this.clients) client.write(frame);
  }
}
