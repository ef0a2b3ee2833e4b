import type { Environment } from './environment.js';
import { listAll } from './listing.js';
import { segment, sleep, type Transport } from './transport.js';
import type {
  ListOptions,
  QrFrame,
  RawEvidence,
  SessionRow,
  SessionState,
  StartAuthRequest,
  StartedSession,
  StartPaymentRequest,
  StartPhoneAuthRequest,
  StartPhoneSignRequest,
  StartSignRequest,
} from './types.js';

export interface WaitOptions {
  signal?: AbortSignal;
  /** Called with each answer whose status or hintCode differs from the one before (the first included). */
  onUpdate?: (state: SessionState) => void;
  /** Between polls; default 2,000 ms, the provider's own collect interval (docs/api.md). */
  intervalMs?: number;
}

export interface QrImageOptions {
  /** Width and height in pixels, 100 to 2,000 (default 294). */
  size?: number;
  signal?: AbortSignal;
}

/** Sessions of every operation and channel (docs/api.md): start, poll, cancel, the QR, the evidence, the listing. */
export class Sessions {
  readonly #transport: Transport;
  readonly #environment: Environment;

  constructor(transport: Transport, environment: Environment) {
    this.#transport = transport;
    this.#environment = environment;
  }

  /** Identify the end user on their device (QR or the same device's app). */
  startAuth(provider: string, body: StartAuthRequest, signal?: AbortSignal): Promise<StartedSession> {
    return this.#start(`/api/v1/auth/${segment(provider)}/start`, body, signal);
  }

  /** Have the end user sign `userVisibleData` on their device. */
  startSign(provider: string, body: StartSignRequest, signal?: AbortSignal): Promise<StartedSession> {
    return this.#start(`/api/v1/sign/${segment(provider)}/start`, body, signal);
  }

  /** Identify the person on a call with the RP's call centre (no QR). */
  startPhoneAuth(provider: string, body: StartPhoneAuthRequest, signal?: AbortSignal): Promise<StartedSession> {
    return this.#start(`/api/v1/phone/auth/${segment(provider)}/start`, body, signal);
  }

  /** Have the person on a call sign (no QR). */
  startPhoneSign(provider: string, body: StartPhoneSignRequest, signal?: AbortSignal): Promise<StartedSession> {
    return this.#start(`/api/v1/phone/sign/${segment(provider)}/start`, body, signal);
  }

  /** Have the end user approve a payment (BankID's payment order). */
  startPayment(provider: string, body: StartPaymentRequest, signal?: AbortSignal): Promise<StartedSession> {
    return this.#start(`/api/v1/payment/${segment(provider)}/start`, body, signal);
  }

  poll(sessionId: string, signal?: AbortSignal): Promise<SessionState> {
    return this.#transport.json({ method: 'POST', path: `${this.#path(sessionId)}/poll`, auth: 'apiKey', signal });
  }

  cancel(sessionId: string, signal?: AbortSignal): Promise<SessionState> {
    return this.#transport.json({ method: 'POST', path: `${this.#path(sessionId)}/cancel`, auth: 'apiKey', signal });
  }

  /** The same browser came back from the e-ID app with this nonce (docs/same-device.md). */
  confirmReturn(sessionId: string, nonce: string, signal?: AbortSignal): Promise<SessionState> {
    return this.#transport.json({ method: 'POST', path: `${this.#path(sessionId)}/return`, auth: 'apiKey', body: { nonce }, signal });
  }

  /** The provider's raw evidence of a complete session, until its personal data is purged (docs/evidence.md). */
  evidence(sessionId: string, signal?: AbortSignal): Promise<RawEvidence> {
    return this.#transport.json({ method: 'GET', path: `${this.#path(sessionId)}/evidence`, auth: 'apiKey', signal });
  }

  /** The current QR frame as data; it changes every second. */
  qr(sessionId: string, signal?: AbortSignal): Promise<QrFrame> {
    return this.#transport.json({ method: 'GET', path: `${this.#path(sessionId)}/qr`, auth: 'apiKey', query: { format: 'json' }, signal });
  }

  /** The current QR frame as a PNG image. */
  async qrPng(sessionId: string, options: QrImageOptions = {}): Promise<Uint8Array> {
    const answer = await this.#qrImage(sessionId, 'png', options);
    return new Uint8Array(await answer.arrayBuffer());
  }

  /** The current QR frame as an SVG document. */
  async qrSvg(sessionId: string, options: QrImageOptions = {}): Promise<string> {
    return (await this.#qrImage(sessionId, 'svg', options)).text();
  }

  /**
   * Polls every 2 s until the session is complete or failed, and resolves with that final answer (with
   * its result token). Rejects with the signal's reason when aborted.
   */
  async waitForResult(sessionId: string, options: WaitOptions = {}): Promise<SessionState> {
    let last: string | undefined;
    for (;;) {
      const state = await this.poll(sessionId, options.signal);
      const seen = `${state.status}/${state.hintCode ?? ''}`;
      if (seen !== last) options.onUpdate?.(state);
      last = seen;
      if (state.status !== 'pending') return state;
      await sleep(options.intervalMs ?? 2_000, options.signal);
    }
  }

  /** The team's sessions of this environment, without personal data, page by page (needs accessToken). */
  list(options: ListOptions = {}): AsyncGenerator<SessionRow> {
    return listAll<SessionRow>(this.#transport, '/api/v1/sessions', this.#environment, options);
  }

  #start(path: string, body: unknown, signal: AbortSignal | undefined): Promise<StartedSession> {
    return this.#transport.json({ method: 'POST', path, auth: 'apiKey', body, signal });
  }

  #path(sessionId: string): string {
    return `/api/v1/auth/${segment(sessionId)}`;
  }

  #qrImage(sessionId: string, format: 'png' | 'svg', options: QrImageOptions): Promise<Response> {
    return this.#transport.send({
      method: 'GET',
      path: `${this.#path(sessionId)}/qr`,
      auth: 'apiKey',
      query: { format, size: options.size },
      accept: format === 'png' ? 'image/png' : 'image/svg+xml',
      signal: options.signal,
    });
  }
}
