import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { assertPublicAddress, hostOf, publicOnlyLookup } from '../../webhooks/webhook-target-policy.js';

const MAX_TOKEN_BYTES = 1024 * 1024;

/** The one call out of the verifier: a status list token by its URI (docs/eudi-wallet.md, "What is checked"). */
export abstract class StatusListFetcher {
  abstract fetch(uri: string): Promise<string>;
}

/**
 * Over HTTPS (plain HTTP only where private targets are allowed, for tests), with the webhooks' rule
 * for targets: internal addresses are refused at connect time unless WEBHOOK_ALLOW_PRIVATE_TARGETS,
 * redirects are not followed, a deadline covers the whole exchange and at most 1 MiB is read.
 */
export class HttpStatusListFetcher extends StatusListFetcher {
  private readonly agent: Agent;

  constructor(private readonly options: { timeoutMs: number; allowPrivateTargets: boolean }) {
    super();
    this.agent = new Agent({
      connect: options.allowPrivateTargets ? {} : { lookup: publicOnlyLookup() },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  async fetch(uri: string): Promise<string> {
    const url = new URL(uri);
    if (url.protocol !== 'https:' && !(this.options.allowPrivateTargets && url.protocol === 'http:'))
      throw new Error('A status list is fetched over https');
    // An address literal skips the lookup, so it is judged here.
    const host = hostOf(url);
    if (!this.options.allowPrivateTargets && isIP(host)) assertPublicAddress(host, host);
    const response = await request(url, {
      dispatcher: this.agent,
      headers: { accept: 'application/statuslist+jwt' },
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new Error(`The status list answered ${response.statusCode}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_TOKEN_BYTES) {
        response.body.destroy();
        throw new Error('The status list is too large');
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8').trim();
  }
}
