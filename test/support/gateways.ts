import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './service-process.js';

const ROOT = process.cwd();

/** A gateway's binary from Debian's packages (`.ci/run` installs them), or null with the reason on stderr. */
export function gatewayBinary(name: 'nginx' | 'caddy', candidates: string[]): string | null {
  const found = candidates.find((path) => existsSync(path));
  if (found) return found;
  process.stderr.write(
    `[tests] ${name} not found (${candidates.join(', ')}): its forward-auth tests are skipped; apt-get install ${name === 'nginx' ? 'nginx-light' : 'caddy'}.\n`,
  );
  return null;
}

/** A child process on a loopback port with a temporary configuration, never a system service. */
export interface RunningGateway {
  baseUrl: string;
  output(): string;
  stop(): Promise<void>;
}

async function runGateway(
  command: string,
  args: string[],
  port: number,
  dir: string,
  env: Record<string, string> = {},
): Promise<RunningGateway> {
  let output = '';
  const child: ChildProcess = spawn(command, args, {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Should the test runner itself go away, the gateway must not outlive it.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  child.once('exit', () => process.off('exit', reap));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} exited at start:\n${output}`);
    try {
      await fetch(baseUrl, { signal: AbortSignal.timeout(1_000) });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${command} did not listen on ${port}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    baseUrl,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** nginx in front of `api`, with deploy/nginx/forward-auth.conf (the snippet docs/forward-auth.md shows) as its server's locations. */
export async function startNginx(binary: string, upstreams: { eidgw: string; api: string }): Promise<RunningGateway> {
  const dir = await mkdtemp(join(tmpdir(), 'eidgw-nginx-'));
  const port = await freePort();
  const config = `daemon off;
master_process off;
worker_processes 1;
error_log ${dir}/error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream eidgw { server ${upstreams.eidgw}; }
  upstream v2_api { server ${upstreams.api}; }
  server {
    listen 127.0.0.1:${port};
    include ${join(ROOT, 'deploy/nginx/forward-auth.conf')};
  }
}
`;
  await writeFile(join(dir, 'nginx.conf'), config);
  const check = spawnSync(binary, ['-t', '-e', join(dir, 'startup.log'), '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused the configuration:\n${check.stderr}`);
  return runGateway(binary, ['-e', join(dir, 'startup.log'), '-p', dir, '-c', join(dir, 'nginx.conf')], port, dir);
}

/** Caddy in front of `api`, importing deploy/forward-auth.caddy (the snippet docs/forward-auth.md shows). */
export async function startCaddy(binary: string, upstreams: { eidgw: string; api: string }): Promise<RunningGateway> {
  const dir = await mkdtemp(join(tmpdir(), 'eidgw-caddy-'));
  const port = await freePort();
  const config = `{
	admin off
	auto_https off
}

http://127.0.0.1:${port} {
	import ${join(ROOT, 'deploy/forward-auth.caddy')}
}
`;
  await writeFile(join(dir, 'Caddyfile'), config);
  return runGateway(binary, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], port, dir, {
    XDG_DATA_HOME: dir,
    XDG_CONFIG_HOME: dir,
    EIDGW_UPSTREAMS: upstreams.eidgw,
    V2_API_UPSTREAM: upstreams.api,
  });
}

/** A stand-in for a v2 API: answers 200 and remembers what reached it. */
export async function startStandInApi(): Promise<{
  address: string;
  seen: { method: string; url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}> {
  const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ served: request.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ClientAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The path and query that were asked for. */
  path: string;
}

/** One HTTP request from a chosen loopback address (127.0.0.0/8 is all ours), as a distinct client would send it. */
export function requestFrom(
  localAddress: string,
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string },
): Promise<ClientAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: init.method,
        headers: init.headers,
        localAddress,
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text, path: target.pathname + target.search }),
        );
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}
