import { appendFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';

export interface Row {
  scenario: string;
  ours: string;
  baseline?: string;
  ratio?: string;
  note?: string;
}

export interface Target {
  name: string;
  goal: string;
  measured: string;
  met: boolean;
}

export function machine(postgresVersion: string | null): string[] {
  return [
    `- CPU: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    `- Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- Node.js ${process.version}, ${process.platform}/${process.arch}`,
    `- Database: ${postgresVersion ?? 'embedded PGlite (no PostgreSQL reachable)'}`,
  ];
}

export function markdownTable(headers: string[], rows: string[][]): string {
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

export function textTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (c ?? '').padEnd(widths[i])).join('  ');
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export const fmt = {
  rps: (n: number) => `${Math.round(n).toLocaleString('en-US')} req/s`,
  ms: (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`,
  pct: (n: number) => `${(n * 100).toFixed(0)}%`,
};

/**
 * Prints a section and, when `npm run bench` runs the whole suite (BENCH_REPORT=1), appends it to
 * docs/benchmarks.md, which run.js has just rewritten: one file holds the whole run.
 */
export async function printSection(title: string, lines: string[]): Promise<void> {
  const text = `${lines.join('\n')}\n`;
  process.stdout.write(text);
  if (process.env.BENCH_REPORT === '1') await appendFile('docs/benchmarks.md', `\n## ${title}\n\n${text}`);
}
