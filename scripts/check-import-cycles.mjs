// Fails when the files under src/ import each other in a cycle (docs/architecture.md, "Layers"). Every
// relative import counts, type-only and dynamic ones too; the TypeScript compiler lists them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const sources = (folder) =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });

const files = new Set(sources(join(root, 'src')));
const imports = new Map(
  [...files].map((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(file), name).replace(/\.js$/, '.ts'))
      .filter((target) => files.has(target));
    return [file, targets];
  }),
);

// Tarjan's strongly connected components: every component of more than one file is a cycle.
const cycles = [];
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
let next = 0;
const visit = (file) => {
  index.set(file, next);
  low.set(file, next++);
  stack.push(file);
  onStack.add(file);
  for (const target of imports.get(file)) {
    if (!index.has(target)) {
      visit(target);
      low.set(file, Math.min(low.get(file), low.get(target)));
    } else if (onStack.has(target)) low.set(file, Math.min(low.get(file), index.get(target)));
  }
  if (low.get(file) !== index.get(file)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(member);
  } while (member !== file);
  if (component.length > 1 || imports.get(file).includes(file)) cycles.push(component);
};
for (const file of files) if (!index.has(file)) visit(file);

if (cycles.length === 0) {
  console.log(`No import cycle among ${files.size} files under src/.`);
} else {
  for (const component of cycles) console.error(`Import cycle: ${component.map((file) => relative(root, file)).join(' ↔ ')}`);
  process.exitCode = 1;
}
