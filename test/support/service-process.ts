import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { transformFile } from '@swc/core';

const ROOT = process.cwd();

/**
 * Compiles src/ and migrations/ for a real `node main.js` process, the way jest compiles them
 * (swc, decorator metadata, ES modules): a second per build, where `nest build` takes twenty, and
 * always the code under test rather than a stale dist/. Then bundles it as `npm run build` does, so
 * the process is the one `npm start` runs (docs/performance.md, "Start-up"). The output sits inside
 * the project so that its imports resolve to the project's node_modules.
 */
export async function buildService(): Promise<{ main: string; cli: string; remove(): Promise<void> }> {
  await mkdir(join(ROOT, 'node_modules', '.cache'), { recursive: true });
  const out = await mkdtemp(join(ROOT, 'node_modules', '.cache', 'eidgw-service-'));
  await writeFile(join(out, 'package.json'), '{ "type": "module" }\n');
  for (const dir of ['src', 'migrations']) {
    const entries = await readdir(join(ROOT, dir), { recursive: true, withFileTypes: true });
    const all = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? e.path, e.name).slice(join(ROOT, dir).length + 1));
    const files = all.filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));
    // Assets the service reads at run time (the kiosk page's script and style) are copied as they are.
    const assets = all.filter((f) => f.includes('/assets/'));
    await Promise.all(
      assets.map(async (file) => {
        await mkdir(dirname(join(out, dir, file)), { recursive: true });
        await copyFile(join(ROOT, dir, file), join(out, dir, file));
      }),
    );
    await Promise.all(
      files.map(async (file) => {
        const { code } = await transformFile(join(ROOT, dir, file), {
          jsc: {
            parser: { syntax: 'typescript', decorators: true },
            transform: { legacyDecorator: true, decoratorMetadata: true },
            target: 'es2022',
          },
          module: { type: 'es6' },
        });
        const target = join(out, dir, file.replace(/\.ts$/, '.js'));
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, code);
      }),
    );
  }
  await promisify(execFile)(process.execPath, [
    join(ROOT, 'scripts', 'bundle-service.mjs'),
    join(out, 'src', 'main.js'),
    join(out, 'service'),
    '--no-sourcemap',
  ]);
  return {
    main: join(out, 'service', 'main.js'),
    cli: join(out, 'src', 'cli.js'),
    remove: () => rm(out, { recursive: true, force: true }),
  };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The service as its own operating-system process, which a test can kill like a crash would. */
export class ServiceProcess {
  private output = '';
  private readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-20_000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** Starts `node main` with exactly `env` and resolves once /health/ready answers 200. */
  static async start(main: string, env: Record<string, string>, timeoutMs = 30_000): Promise<ServiceProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, [main], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(child, `http://127.0.0.1:${port}`);
    // Should the test runner itself go away, the service must not outlive it.
    const reap = () => child.kill('SIGKILL');
    process.once('exit', reap);
    child.once('exit', () => process.off('exit', reap));
    const deadline = Date.now() + timeoutMs;
    let exitCode: number | null | undefined;
    void service.exited.then((code) => (exitCode = code));
    while (Date.now() < deadline && exitCode === undefined) {
      const ready = await fetch(`${service.baseUrl}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return service;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await service.kill();
    throw new Error(`The service did not become ready (exit code ${exitCode}). Its output:\n${service.output}`);
  }

  /** The exit code once the process has ended; null while it runs. */
  get exitCode(): number | null {
    return this.child.exitCode;
  }

  /** Resolves with the exit code when the process ends. */
  waitForExit(): Promise<number | null> {
    return this.exited;
  }

  /** Sends a signal without waiting for the process to end. */
  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  get log(): string {
    return this.output;
  }

  /** Kills the process (SIGKILL by default: no shutdown hook runs) and waits until it is gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    await this.exited;
  }
}
