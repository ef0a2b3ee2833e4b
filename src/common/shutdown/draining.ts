import { Injectable } from '@nestjs/common';

/**
 * The process has been asked to stop (docs/reliability.md, "SIGTERM"). Whatever holds a connection
 * open for long (the kiosk's event streams) subscribes here to end it when the drain begins, so that
 * the requests in flight can finish and the HTTP server can close.
 */
@Injectable()
export class Draining {
  private began = false;
  private readonly listeners = new Set<() => void>();

  get active(): boolean {
    return this.began;
  }

  /** Calls `listener` when the drain begins; returns the unsubscribe function. */
  onBegin(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  begin(): void {
    if (this.began) return;
    this.began = true;
    for (const listener of this.listeners) listener();
    this.listeners.clear();
  }
}
