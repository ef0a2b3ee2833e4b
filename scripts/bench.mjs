// `npm run bench`: builds, then runs every benchmark in turn with BENCH_REPORT=1 (each writes its part of
// docs/), even when an earlier one misses a target, and exits 1 at the end naming those that missed.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const BENCHES = ['run', 'qr-render', 'kiosk-fleet', 'input-guard', 'http-metrics', 'forward-auth', 'fronts', 'transparency', 'oidc'];

const run = (command, args, env = {}) => spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status;

if (run('npm', ['run', '--silent', 'build']) !== 0) process.exit(1);
const missed = BENCHES.filter(
  (bench) => run(process.execPath, [join('dist', 'bench', bench === 'run' ? 'run.js' : `${bench}.bench.js`)], { BENCH_REPORT: '1' }) !== 0,
);
if (missed.length > 0) {
  process.stderr.write(`bench: ${missed.join(', ')} missed a target or failed (see above).\n`);
  process.exit(1);
}
