import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { Draining } from '../common/shutdown/draining.js';
import { kioskConfig, type KioskConfig } from '../config/kiosk.config.js';
import { qrFrame, qrTimeAt } from '../qr/qr-frame.js';
import { SessionScreenReader, type SessionScreenState } from '../sessions/session-screen-reader.js';

/** One open event stream: the HTTP response, seen as something to write events to. */
export interface KioskViewer {
  send(event: string): void;
  close(): void;
}

interface Watch {
  state: SessionScreenState;
  orderTimeMs: number;
  viewers: Set<KioskViewer>;
  lastQrTime: number;
  frameTimer?: NodeJS.Timeout;
}

/** Status is re-read this often for every watched session at once (the collector moves it every 2 s). */
const STATUS_REFRESH_MS = 1_000;
/** More screens than this on one session is not a kiosk but a leak or an attack. */
export const MAX_VIEWERS_PER_SESSION = 10;
/**
 * Open streams per process, all sessions together: each holds a socket and a place in the broadcasts,
 * and the routes are anonymous, so the per-session cap alone would let many sessions' screens add up
 * without end (docs/kiosk.md). Far above a venue's screens.
 */
export const MAX_OPEN_STREAMS = 1_000;

/** What a screen is told to wait before reconnecting when this replica shuts down. */
const SHUTDOWN_RETRY_MS = 1_000;

const sse = (event: string, data: object) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Pushes each watched session's QR frames and status to its kiosk screens (server-sent events).
 * A session's secret is read and decrypted once, when its first screen connects; after that a frame
 * costs one HMAC, sent at the second it becomes current, and the status of all watched sessions is
 * re-read in one query a second. Screens draw the QR themselves from qrData (docs/kiosk.md).
 */
@Injectable()
export class KioskStreamsService implements OnModuleDestroy {
  private readonly logger = new Logger(KioskStreamsService.name);
  private readonly watches = new Map<string, Watch>();
  // Screens that passed the viewer cap and are not attached yet, by session.
  private readonly admitting = new Map<string, number>();
  // Streams open or being opened, by client address; an address leaves the map with its last stream.
  private readonly byAddress = new Map<string, number>();
  private refreshTimer?: NodeJS.Timeout;
  private refreshing = false;

  constructor(
    private readonly sessions: SessionScreenReader,
    private readonly clock: Clock,
    draining: Draining,
    // Open streams per client address (IPv6 by its /64), KIOSK_STREAMS_PER_ADDRESS: login pages hand every
    // visitor a token, so without it one address could take the process's streams from every tenant (docs/kiosk.md).
    @Inject(kioskConfig.KEY) private readonly config: Pick<KioskConfig, 'streamsPerAddress'>,
  ) {
    // A replica that shuts down ends its streams at once, telling each screen to reconnect (to another replica) soon.
    draining.onBegin(() => this.endAll(SHUTDOWN_RETRY_MS));
  }

  /**
   * Checks that a screen may start watching (the session exists and has room, the address and the
   * process too), before the stream opens. The caller calls `release(address)` when the stream closes.
   */
  async prepare(sessionId: string, address: string): Promise<SessionScreenState> {
    const watch = this.watches.get(sessionId);
    const admitting = this.admitting.get(sessionId) ?? 0;
    if ((watch?.viewers.size ?? 0) + admitting >= MAX_VIEWERS_PER_SESSION) {
      throw new DomainException('rate_limit_exceeded', 'Too many screens show this session.', { headers: { 'retry-after': '5' } });
    }
    if (this.openStreams() >= MAX_OPEN_STREAMS) {
      throw new DomainException('rate_limit_exceeded', 'Too many kiosk screens are open on this server.', {
        headers: { 'retry-after': '5' },
      });
    }
    const fromAddress = this.byAddress.get(address) ?? 0;
    if (fromAddress >= this.config.streamsPerAddress) {
      throw new DomainException('rate_limit_exceeded', 'Too many screens from this address.', { headers: { 'retry-after': '5' } });
    }
    // The place is taken before the await, so that screens arriving together cannot all pass the check.
    this.admitting.set(sessionId, admitting + 1);
    this.byAddress.set(address, fromAddress + 1);
    try {
      return watch?.state ?? (await this.sessions.forScreen(sessionId));
    } catch (error) {
      this.admitted(sessionId);
      this.release(address);
      throw error;
    }
  }

  /** A stream of this address closed (or never opened). */
  release(address: string): void {
    const left = (this.byAddress.get(address) ?? 1) - 1;
    if (left > 0) this.byAddress.set(address, left);
    else this.byAddress.delete(address);
  }

  /** Streams open or being opened, every session together. */
  openStreams(): number {
    let open = 0;
    for (const watch of this.watches.values()) open += watch.viewers.size;
    for (const admitting of this.admitting.values()) open += admitting;
    return open;
  }

  private admitted(sessionId: string): void {
    const left = (this.admitting.get(sessionId) ?? 1) - 1;
    if (left > 0) this.admitting.set(sessionId, left);
    else this.admitting.delete(sessionId);
  }

  /** Starts sending to a viewer: the current status and frame at once, then every change. */
  attach(state: SessionScreenState, viewer: KioskViewer): void {
    this.admitted(state.id);
    let watch = this.watches.get(state.id);
    viewer.send(sse('status', statusOf(watch?.state ?? state)));
    if (!watch) {
      if (state.status !== 'pending') {
        viewer.close();
        return;
      }
      watch = { state, orderTimeMs: state.orderTime.getTime(), viewers: new Set(), lastQrTime: -1 };
      this.watches.set(state.id, watch);
      this.startRefreshing();
    }
    watch.viewers.add(viewer);
    if (watch.lastQrTime >= 0) {
      viewer.send(this.frameEvent(watch, watch.lastQrTime));
      return;
    }
    this.sendFrame(watch);
    this.scheduleFrame(watch);
  }

  detach(sessionId: string, viewer: KioskViewer): void {
    const watch = this.watches.get(sessionId);
    if (!watch?.viewers.delete(viewer) || watch.viewers.size > 0) return;
    this.unwatch(watch);
  }

  /** Reads every watched session's status in one query and tells the screens what changed. */
  async refreshStatuses(): Promise<void> {
    if (this.refreshing || this.watches.size === 0) return;
    this.refreshing = true;
    try {
      const known = [...this.watches.values()].map(({ state }) => ({ id: state.id, hintCode: state.hintCode, renewals: state.renewals }));
      for (const change of await this.sessions.changes(known)) {
        const watch = this.watches.get(change.id);
        if (!watch) continue;
        if (change.status === 'pending' && change.renewals !== watch.state.renewals) await this.followRenewal(watch);
        if (change.status === watch.state.status && change.hintCode === watch.state.hintCode) continue;
        Object.assign(watch.state, { status: change.status, hintCode: change.hintCode });
        this.broadcast(watch, sse('status', statusOf(watch.state)));
        if (change.status !== 'pending') {
          for (const viewer of watch.viewers) viewer.close();
          this.unwatch(watch);
        }
      }
    } catch (error) {
      // The next refresh tries again; screens keep their frames meanwhile.
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'Kiosk status refresh failed');
    } finally {
      this.refreshing = false;
    }
  }

  /** A renewed order (autoRenew): frames continue at once from the new order, on the same stream. */
  private async followRenewal(watch: Watch): Promise<void> {
    const fresh = await this.sessions.forScreen(watch.state.id);
    if (!fresh.qr) return;
    clearTimeout(watch.frameTimer);
    Object.assign(watch, { state: { ...fresh, hintCode: watch.state.hintCode }, orderTimeMs: fresh.orderTime.getTime(), lastQrTime: -1 });
    this.sendFrame(watch);
    this.scheduleFrame(watch);
  }

  onModuleDestroy(): void {
    // Open streams would keep the HTTP server from closing: end them (EventSource-style clients reconnect elsewhere).
    this.endAll(SHUTDOWN_RETRY_MS);
  }

  /** Ends every stream with an SSE `retry` hint (docs/kiosk.md, "Surviving a blip"). */
  private endAll(retryMs: number): void {
    for (const watch of this.watches.values()) {
      for (const viewer of watch.viewers) {
        viewer.send(`retry: ${retryMs}\n\n`);
        viewer.close();
      }
      this.unwatch(watch);
    }
  }

  /**
   * A timer per session, set for the instant its next frame becomes current (qrTime counts from the
   * session's own orderTime). It aims at the frame after the last one sent, not at "now + 1 s": a
   * timer that fires a little early then retries for the same frame instead of skipping it.
   */
  private scheduleFrame(watch: Watch): void {
    const due = watch.orderTimeMs + (watch.lastQrTime + 1) * 1000;
    watch.frameTimer = setTimeout(
      () => {
        this.sendFrame(watch);
        this.scheduleFrame(watch);
      },
      Math.max(0, due - this.clock.nowMs()),
    );
  }

  private sendFrame(watch: Watch): void {
    const qrTime = qrTimeAt(watch.state.orderTime, this.clock.now());
    if (qrTime <= watch.lastQrTime) return;
    watch.lastQrTime = qrTime;
    this.broadcast(watch, this.frameEvent(watch, qrTime));
  }

  private frameEvent(watch: Watch, qrTime: number): string {
    // A static code is sent each second too, and a session without a QR (a same-device login) gets frames
    // without one: the page treats frames that stop as a lost stream (docs/kiosk.md).
    const { qr } = watch.state;
    return sse('frame', qr ? { qrTime, qrData: qrFrame(qr, qrTime).qrData } : { qrTime });
  }

  private broadcast(watch: Watch, event: string): void {
    for (const viewer of watch.viewers) viewer.send(event);
  }

  private unwatch(watch: Watch): void {
    clearTimeout(watch.frameTimer);
    this.watches.delete(watch.state.id);
    if (this.watches.size === 0) this.stopRefreshing();
  }

  private startRefreshing(): void {
    this.refreshTimer ??= setInterval(() => void this.refreshStatuses(), STATUS_REFRESH_MS);
  }

  private stopRefreshing(): void {
    clearInterval(this.refreshTimer);
    this.refreshTimer = undefined;
  }
}

// The provider travels with every status, so a screen speaks the session's provider's words from the first event.
const statusOf = (state: SessionScreenState) => ({
  status: state.status,
  provider: state.provider,
  ...(state.hintCode ? { hintCode: state.hintCode } : {}),
});
