import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { JWK } from 'jose';

export type UpstreamProfile = 'nbid' | 'ftn' | 'se-broker' | 'mitid';

export interface FakeUpstreamOptions {
  profile: UpstreamProfile;
  clientId: string;
  redirectUri: string;
  /** The service's public keys: its signing key (client assertions, request objects) and, for FTN, its encryption key. */
  clientKeys: JWK[];
  /** Takes backchannel requests (CIBA, poll mode); the first token request of each answers slow_down. */
  ciba?: boolean;
}

const SCRIPT = fileURLToPath(new URL('./upstream-openid-provider-server.mjs', import.meta.url));

/** A local OpenID Provider playing an upstream e-ID (upstream-openid-provider-server.mjs), in a child process. */
export class FakeUpstream {
  private constructor(
    private readonly child: ChildProcess,
    readonly issuer: string,
  ) {}

  static start(options: FakeUpstreamOptions): Promise<FakeUpstream> {
    const child = spawn(process.execPath, [SCRIPT], {
      env: { ...process.env, FAKE_UPSTREAM: JSON.stringify(options), NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return new Promise((resolve, reject) => {
      let seen = '';
      child.stdout.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        const issuer = /^ISSUER (\S+)$/m.exec(seen)?.[1];
        if (issuer) resolve(new FakeUpstream(child, issuer));
      });
      child.once('exit', (code) => reject(new Error(`The fake ${options.profile} exited (${code}) before it listened`)));
    });
  }

  /** From now on, logins answer an acr the gateway did not ask for, or the one it did. */
  async answerWeakAcr(on: boolean): Promise<void> {
    await fetch(`${this.issuer}/__weak-acr/${on ? 'on' : 'off'}`);
  }

  /** From now on, id tokens are signed by a key the provider does not publish (a forged token), or not. */
  async forgeIdTokens(on: boolean): Promise<void> {
    await fetch(`${this.issuer}/__forge/${on ? 'on' : 'off'}`);
  }

  /** Ends the oldest open backchannel request: the person approves or declines it, or it expires. */
  async endBackchannel(action: 'approve' | 'deny' | 'expire'): Promise<void> {
    const answer = await fetch(`${this.issuer}/__ciba/${action}`);
    if (answer.status !== 204) throw new Error(`The fake upstream had no backchannel request to ${action} (${answer.status})`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill();
    });
  }
}
