import { Injectable } from '@nestjs/common';
import { Counter, Histogram, Registry } from 'prom-client';

/** The label of every request that matched no route, so that probing random paths cannot add series. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The HTTP RED set (docs/operations.md): requests by route template and status, and their duration.
 * Recorded from the request-log hook, so no extra hook or interceptor runs per request.
 */
@Injectable()
export class HttpMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route'>;
  /** Label children per method and route, so a request costs no label hashing (few routes, few statuses). */
  private readonly children = new Map<string, { observe: (seconds: number) => void; count: Map<number, () => void> }>();

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'Answered HTTP requests by method, route template and status code.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its answer, by method and route template.',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  }

  /** `route` is Fastify's route template (`/api/v1/auth/:sessionId/poll`), never the raw path. */
  observe(method: string, route: string | undefined, status: number, elapsedMs: number): void {
    const template = route ?? UNMATCHED_ROUTE;
    const key = `${method} ${template}`;
    let child = this.children.get(key);
    if (!child) {
      const histogram = this.duration.labels(method, template);
      child = { observe: (seconds) => histogram.observe(seconds), count: new Map() };
      this.children.set(key, child);
    }
    let count = child.count.get(status);
    if (!count) {
      const counter = this.requests.labels(method, template, String(status));
      count = () => counter.inc();
      child.count.set(status, count);
    }
    count();
    child.observe(elapsedMs / 1000);
  }
}
