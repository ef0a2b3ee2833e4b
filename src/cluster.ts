import cluster from 'node:cluster';
import { pino } from 'pino';

const RESTART_DELAY_MS = 1_000;

/**
 * The primary of WEB_CONCURRENCY worker processes sharing one port. Workers are whole services
 * (PostgreSQL is the only shared state, so they need no coordination); one that dies is replaced,
 * and SIGTERM is passed on so each drains its requests.
 */
export function runClusterPrimary(workers: number): void {
  // The primary runs no Nest application; it logs JSON lines like the workers do.
  const logger = pino({ name: 'cluster' });
  let stopping = false;
  const fork = () => cluster.fork();
  for (let i = 0; i < workers; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    logger.warn({ pid: worker.process.pid, code, signal }, 'Worker exited; starting another');
    setTimeout(fork, RESTART_DELAY_MS);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    });
  }
  logger.info({ workers }, 'Started worker processes');
}
