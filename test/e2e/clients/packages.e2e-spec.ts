import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const canBuildWheels = await run('python3', ['-c', 'import setuptools, wheel']).then(
  () => true,
  () => false,
);
if (!canBuildWheels) console.warn('[clients] python3 with setuptools and wheel not found: the Python wheel is not built here');

// docs/clients.md: both libraries build into what a project installs. npm pack builds the TypeScript
// package first (prepack); the Python wheel is built where setuptools and wheel are installed (no index
// is asked: nothing may download while the tests run), else that part is skipped, saying so.
describe('The client packages', () => {
  it('should pack the TypeScript client with its build, its types and no tests', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--silent'], { cwd: 'clients/typescript' });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { name: string; files: { path: string }[] }[];
    const files = packed.files.map((file) => file.path);
    expect(packed.name).toBe('@eid-gateway/client');
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/openapi.d.ts']),
    );
    expect(files.filter((file) => /spec|test/.test(file))).toEqual([]);
  }, 60_000);

  (canBuildWheels ? it : it.skip)(
    'should build the Python client into a wheel with the package and its type marker only',
    async () => {
      const work = await mkdtemp(join(tmpdir(), 'eidgw-python-wheel-'));
      try {
        // A copy, so setuptools' build/ and egg-info stay out of the repository.
        await cp('clients/python', join(work, 'src'), { recursive: true, filter: (path) => !path.includes('__pycache__') });
        await run('python3', [
          '-m',
          'pip',
          'wheel',
          '--no-deps',
          '--no-build-isolation',
          '--no-index',
          '-w',
          join(work, 'out'),
          join(work, 'src'),
        ]);
        const [wheel] = await readdir(join(work, 'out'));
        expect(wheel).toMatch(/^eid_gateway_client-\d+\.\d+\.\d+-py3-none-any\.whl$/);
        const { stdout } = await run('python3', ['-m', 'zipfile', '-l', join(work, 'out', wheel)]);
        expect(stdout).toContain('eid_gateway/client.py');
        expect(stdout).toContain('eid_gateway/py.typed');
        expect(stdout).not.toContain('tests/');
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
