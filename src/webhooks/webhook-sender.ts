import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { assertPublicAddress, ForbiddenTargetError, hostOf, publicOnlyLookup } from './webhook-target-policy.js';

export type AttemptOutcome = 'success' | 'http_error' | 'timeout' | 'network_error' | 'refused';
export const ATTEMPT_OUTCOMES: readonly AttemptOutcome[] = ['success', 'http_error', 'timeout', 'network_error', 'refused'];

/**
 * How much of a receiver's answer is read and kept in the attempt log; the rest is never read. A
 * receiver may echo the body, personal numbers included: little is kept, and it is erased with the
 * payload (docs/webhooks.md).
 */
export const RESPONSE_EXCERPT_BYTES = 256;
const ERROR_TEXT_MAX = 300;

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface AttemptResult {
  outcome: AttemptOutcome;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

export interface WebhookSenderOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  /** The resolver behind the public-only lookup; tests give one that rebinds. */
  resolve?: Parameters<typeof publicOnlyLookup>[0];
}

/**
 * One HTTP POST per attempt, made safe against the receiver: internal addresses refused at connect
 * time, redirects not followed (undici's request never follows them), a deadline over the whole
 * exchange, and at most RESPONSE_EXCERPT_BYTES of the answer read.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: WebhookSenderOptions) {
    this.agent = new Agent({
      connect: options.allowPrivateTargets ? {} : { lookup: publicOnlyLookup(options.resolve) },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  async send(webhook: WebhookRequest): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const url = new URL(webhook.url);
      // Literal addresses never pass through the lookup, so they are checked here.
      if (!this.options.allowPrivateTargets && isIP(hostOf(url))) assertPublicAddress(hostOf(url), hostOf(url));
      const response = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'eid-gateway-webhooks/1', ...webhook.headers },
        body: webhook.body,
        dispatcher: this.agent,
        signal,
      });
      const excerpt = await readExcerpt(response.body);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return {
        outcome: ok ? 'success' : 'http_error',
        statusCode: response.statusCode,
        latencyMs: elapsed(),
        error: ok ? null : `HTTP ${response.statusCode}`,
        responseExcerpt: excerpt,
      };
    } catch (error) {
      return { ...classify(error, signal, this.options.timeoutMs), statusCode: null, latencyMs: elapsed(), responseExcerpt: null };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

async function readExcerpt(body: Readable): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early destroys the stream: a huge or endless answer is never read.
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_EXCERPT_BYTES) break;
  }
  if (size === 0) return null;
  // PostgreSQL text cannot hold NUL; a receiver's binary answer is kept as far as it is text.
  let text = Buffer.concat(chunks)
    .subarray(0, RESPONSE_EXCERPT_BYTES)
    .toString('utf8')
    .replace(/\u0000/g, '');
  // A character cut in two decodes as U+FFFD (3 bytes): drop it rather than exceed the bound.
  while (Buffer.byteLength(text) > RESPONSE_EXCERPT_BYTES) text = text.slice(0, -1);
  return text;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

function classify(error: unknown, signal: AbortSignal, timeoutMs: number): { outcome: AttemptOutcome; error: string } {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const forbidden = [error, cause].find((e) => e instanceof ForbiddenTargetError);
  if (forbidden) return { outcome: 'refused', error: truncate(`Refused: ${forbidden.message}`) };
  const code = (error as { code?: string })?.code;
  if (signal.aborted || (code && TIMEOUT_CODES.has(code))) return { outcome: 'timeout', error: `Timed out after ${timeoutMs} ms` };
  const message = error instanceof Error ? `${code ?? error.name}: ${error.message}` : String(error);
  return { outcome: 'network_error', error: truncate(message) };
}

const truncate = (text: string) => (text.length > ERROR_TEXT_MAX ? `${text.slice(0, ERROR_TEXT_MAX - 1)}…` : text);
