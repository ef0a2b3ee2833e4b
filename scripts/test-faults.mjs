// npm run test:faults (docs/reliability.md): runs the fault tests one after the other with the SPEC's
// worst-case outage (FAULT_SECONDS, default 60), each under load, then writes their figures into the
// table of docs/reliability.md between its markers.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const report = join(root, 'node_modules', '.cache', 'eidgw-faults.jsonl');
mkdirSync(join(report, '..'), { recursive: true });
rmSync(report, { force: true });

const jest = spawnSync(
  process.execPath,
  ['--experimental-vm-modules', join(root, 'node_modules', 'jest', 'bin', 'jest.js'), '--runInBand', 'test/e2e/faults/'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, FAULT_REPORT: report, FAULT_SECONDS: process.env.FAULT_SECONDS ?? '60' } },
);
if (jest.status !== 0) {
  process.stderr.write('test:faults: a fault test failed; docs/reliability.md is left as it was.\n');
  process.exit(jest.status ?? 1);
}
if (!existsSync(report)) {
  process.stderr.write('test:faults: no figures were recorded (no PostgreSQL server?); docs/reliability.md is left as it was.\n');
  process.exit(1);
}

const rows = readFileSync(report, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));
const requests = (counts) =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ') || '—';
const table = [
  '| Fault | Fault lasted | Degraded | Requests by status | Sessions | Sessions lost | Webhooks lost | Webhooks duplicated | Note |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.fault} | ${r.faultSeconds.toFixed(1)} s | ${r.degradedSeconds.toFixed(1)} s | ${requests(r.requests)} | ${r.sessions} | ${r.sessionsLost} | ${r.webhooksLost} | ${r.webhooksDuplicated} | ${r.note ?? ''} |`,
  ),
].join('\n');

const doc = join(root, 'docs', 'reliability.md');
const text = readFileSync(doc, 'utf8');
const start = '<!-- faults:start -->';
const end = '<!-- faults:end -->';
// The machine's load over the run (its 15-minute average at the end): figures from a busy shared machine are noisy.
const meanLoad = loadavg()[2];
const stamp =
  `Measured by \`npm run test:faults\` on ${new Date().toISOString().slice(0, 10)} (FAULT_SECONDS=${process.env.FAULT_SECONDS ?? '60'}), ` +
  `on ${cpus().length} cores at a load average of ${meanLoad.toFixed(1)}${meanLoad > cpus().length ? ' (a busy machine: durations are noisy, counts of lost and duplicated are not)' : ''}.`;
const updated = text.replace(new RegExp(`${start}[\\s\\S]*${end}`), `${start}\n${stamp}\n\n${table}\n${end}`);
writeFileSync(doc, updated);
process.stdout.write(`${table}\n`);
