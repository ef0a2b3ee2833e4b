import { createHash } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import type Provider from 'oidc-provider';
import pg from 'pg';

/** One PKCE verifier for every bench code: the token endpoint checks it per request all the same. */
export const CODE_VERIFIER = 'bench-verifier-'.padEnd(64, 'x');
export const CODE_CHALLENGE = createHash('sha256').update(CODE_VERIFIER).digest('base64url');
export const REDIRECT_URI = 'http://localhost:9/callback';
export const SCOPE = 'openid profile';
export type CodeInit = ConstructorParameters<Provider['AuthorizationCode']>[0];
/** What a finished login leaves: a grant, and a code for it (the token endpoint's input). */
export type Mint = (count: number) => Promise<string[]>;

type BenchRequest = { mint: number } | { queries: true };

/**
 * In the measured server: answers the bench's requests for codes, and for the number of SQL statements
 * sent so far (every pg client's, TypeORM's included), over the fork's IPC channel.
 */
export function serveMints(mint: Mint): void {
  let queries = 0;
  const query = Reflect.get(pg.Client.prototype, 'query') as (this: pg.Client, ...args: unknown[]) => unknown;
  Reflect.set(pg.Client.prototype, 'query', function (this: pg.Client, ...args: unknown[]) {
    queries++;
    return query.apply(this, args);
  });
  process.on('message', (message: BenchRequest) => {
    if ('queries' in message) return process.send!({ queries });
    void mint(message.mint).then(
      (codes) => process.send!({ codes }),
      (error: Error) => process.send!({ error: error.message }),
    );
  });
}

/** In the bench: asks a server for `count` fresh codes. */
export function requestCodes(child: ChildProcess, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    child.once('message', (answer: { codes?: string[]; error?: string }) =>
      answer.codes ? resolve(answer.codes) : reject(new Error(answer.error)),
    );
    child.send({ mint: count } satisfies BenchRequest);
  });
}

/** In the bench: the SQL statements the server has sent so far. */
export function queriesSent(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (answer: { queries: number }) => resolve(answer.queries));
    child.send({ queries: true } satisfies BenchRequest);
  });
}

/** Runs `work` `count` times, `width` at a time (the server's pool is 10 connections). */
export async function inBatches<T>(count: number, width: number, work: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let done = 0; done < count; done += width) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(width, count - done) }, work))));
  }
  return out;
}
