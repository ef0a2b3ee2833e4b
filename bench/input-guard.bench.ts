// CPU of the input guard on pathological inputs of the full body size (docs/protection.md, "Linear
// time"): each input must cost at most BUDGET_MS of CPU, as a body string, as a query value and as a
// path segment. The baseline, measured in the same run, is a benign body of the same size (prose).
// Writes docs/benchmarks-guard.md with BENCH_REPORT=1; exits 1 when an input is over budget.
// Run: npm run build && node dist/bench/input-guard.bench.js
import { writeFile } from 'node:fs/promises';
import { inspectRequest } from '../src/protection/input-guard/input-inspector.js';
import { BODY_LIMIT, PATHOLOGICAL_BODIES, PATHOLOGICAL_TEXTS } from '../test/fixtures/guard/pathological.js';
import { machine, markdownTable } from './lib/report.js';

const BUDGET_MS = 10;
const ROUNDS = 5;
const URL_LIMIT = 16 * 1024;

/** The least CPU milliseconds (user + system) of ROUNDS inspections: the others include other processes' noise. */
function cpuMs(request: { url: string; body?: unknown }): number {
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const before = process.cpuUsage();
    inspectRequest(request);
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

const prose = "Please confirm the login to Select Dental AB, 1 OR 2 people; O'Brien's order (ref 42) is ready. ";
const baselineText = prose.repeat(Math.floor((BODY_LIMIT - 64) / prose.length));
const baseline = cpuMs({ url: '/api/v1/auth/simulator/start', body: { userVisibleData: baselineText } });

const rows: string[][] = [];
let over = 0;
const measure = (name: string, where: string, request: { url: string; body?: unknown }) => {
  const ms = cpuMs(request);
  if (ms > BUDGET_MS) over++;
  rows.push([name, where, ms.toFixed(2), (ms / baseline).toFixed(2), ms <= BUDGET_MS ? 'yes' : '**no**']);
};
for (const [name, text] of Object.entries(PATHOLOGICAL_TEXTS)) {
  measure(name, 'body', { url: '/api/v1/auth/simulator/start', body: { userVisibleData: text } });
  // Node refuses a request line over 16 KiB (431, its max header size) before the guard runs.
  const encoded = encodeURIComponent(text).slice(0, URL_LIMIT);
  measure(name, 'query', { url: `/api/v1/sessions?q=${encoded}` });
  measure(name, 'path', { url: `/api/v1/lookup/${encoded}` });
}
for (const [name, body] of Object.entries(PATHOLOGICAL_BODIES))
  measure(name, 'body', { url: '/api/v1/auth/simulator/start', body: JSON.parse(body) });

const lines = [
  `Budget: ${BUDGET_MS} ms of CPU per request; least of ${ROUNDS} rounds. Baseline: a benign ${BODY_LIMIT / 1024} KiB prose body, ${baseline.toFixed(2)} ms.`,
  '',
  ...machine(null).slice(0, 3),
  '',
  markdownTable(['Input', 'Part', 'CPU ms', 'Ratio to baseline', 'Within budget'], rows),
  '',
  over === 0 ? `All ${rows.length} inputs within budget.` : `${over} of ${rows.length} inputs over budget.`,
];
process.stdout.write(`${lines.join('\n')}\n`);
if (process.env.BENCH_REPORT === '1') {
  await writeFile(
    'docs/benchmarks-guard.md',
    `# Input guard: CPU on pathological inputs\n\nWritten by \`bench/input-guard.bench.ts\` (part of \`npm run bench\`).\n\n${lines.join('\n')}\n`,
  );
}
if (over > 0) process.exitCode = 1;
