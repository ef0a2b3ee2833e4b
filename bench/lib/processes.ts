import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const CLOCK_TICKS_PER_SECOND = 100;

// `npm start`'s command (package.json, three levels above dist/bench/lib): `[NAME=value ...] node [--flag ...] dist/service/main.js`.
const START_COMMAND = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }
).scripts.start.split(/\s+/);
const NODE_AT = START_COMMAND.indexOf('node');

/** The Node flags `npm start` gives the service, so the bench measures that same process. */
export const SERVICE_NODE_FLAGS: string[] = START_COMMAND.slice(NODE_AT + 1).filter((arg) => arg.startsWith('--'));

/** The program `npm start` runs: the bundled service (docs/performance.md, "Start-up"). */
export const SERVICE_SCRIPT: string = START_COMMAND[START_COMMAND.length - 1];

/** The environment `npm start` sets for the service (MALLOC_ARENA_MAX), for the same reason. */
export const SERVICE_ENV: Record<string, string> = Object.fromEntries(
  START_COMMAND.slice(0, NODE_AT).map((assignment) => {
    const at = assignment.indexOf('=');
    return [assignment.slice(0, at), assignment.slice(at + 1)];
  }),
);

export interface RunningProcess {
  child: ChildProcess;
  /** Milliseconds from spawn until the readiness URL answered 200. */
  startupMs: number;
  stop(): Promise<void>;
}

/** Starts a Node program and waits until `readyUrl` answers 200 (or the process says 'ready'). */
export async function startProcess(
  script: string,
  env: Record<string, string>,
  readyUrl: string,
  timeoutMs = 120_000,
  nodeFlags: string[] = [],
): Promise<RunningProcess> {
  const startedAt = performance.now();
  const child = fork(script, [], { execArgv: nodeFlags, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`${script} exited before it was ready`);
    if (Date.now() > deadline) throw new Error(`${script} was not ready within ${timeoutMs} ms`);
    const ok = await fetch(readyUrl).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await sleep(50);
  }
  const startupMs = performance.now() - startedAt;
  return {
    child,
    startupMs,
    stop: async () => {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([gone, sleep(10_000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

/** Starts a service program as `npm start` runs the service: its environment and Node flags, then `extraFlags`. */
export function startService(
  script: string,
  env: Record<string, string>,
  readyUrl: string,
  timeoutMs?: number,
  extraFlags: string[] = [],
): Promise<RunningProcess> {
  return startProcess(script, { ...SERVICE_ENV, ...env }, readyUrl, timeoutMs, [...SERVICE_NODE_FLAGS, ...extraFlags]);
}

/** The process and its descendants (cluster workers). */
function processTree(pid: number): number[] {
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [pid, ...children.flatMap(processTree)];
}

/** CPU time (user + system) of a process tree (or of the process alone) in milliseconds. */
export function cpuTimeMs(pid: number, withDescendants = true): number {
  return (withDescendants ? processTree(pid) : [pid]).reduce((sum, p) => {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      return sum + ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
    } catch {
      return sum;
    }
  }, 0);
}

/** Resident memory of a process tree in MiB. */
export function rssMiB(pid: number): number {
  return processTree(pid).reduce((sum, p) => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      return sum + (match ? Number(match[1]) / 1024 : 0);
    } catch {
      return sum;
    }
  }, 0);
}
