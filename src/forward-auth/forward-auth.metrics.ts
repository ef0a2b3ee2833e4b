import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/** Forward-auth decisions by outcome and the policy's route template (docs/forward-auth.md, "Metrics"). */
@Injectable()
export class ForwardAuthMetrics {
  private readonly decisions: Counter<'outcome' | 'method' | 'route'>;
  private readonly children = new Map<string, () => void>();

  constructor(registry: Registry) {
    this.decisions = new Counter({
      name: 'forward_auth_decisions_total',
      help: 'Forward-auth decisions by outcome (allowed, or the refusal code; input_guard; bad_request) and policy route template (unlisted when none matched).',
      labelNames: ['outcome', 'method', 'route'],
      registers: [registry],
    });
  }

  /** `route` is a policy template or `unlisted`; `method` the original method of a listed route, else `-`: bounded by the policy. */
  count(outcome: string, method: string, route: string): void {
    const key = `${outcome} ${method} ${route}`;
    let increment = this.children.get(key);
    if (!increment) {
      const child = this.decisions.labels(outcome, method, route);
      increment = () => child.inc();
      this.children.set(key, increment);
    }
    increment();
  }
}
