// `npm start`'s prestart: build the server and the console only when a source is newer than the last
// build, so a start on an unchanged checkout costs no compile (docs/operations.md, "Start-up").
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');
// What the build reads: the server's and console's sources, the migrations, the benchmarks, and their settings.
const sources = [
  'src',
  'console',
  'migrations',
  'bench',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'nest-cli.json',
];

/** The newest modification time under a file or folder (0 when it does not exist). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((latest, entry) => Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs), 0);
}

const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const changed = Math.max(...sources.map((source) => newest(join(root, source))));
if (changed > built || !existsSync(join(root, 'dist', 'service', 'main.js'))) {
  const startedAt = Date.now();
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  // Stamped with the time the build began: a source saved during the build makes the next start build again.
  writeFileSync(stamp, '');
  utimesSync(stamp, new Date(startedAt), new Date(startedAt));
}
