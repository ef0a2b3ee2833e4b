import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The JSON in `file`, or what `generate` makes, written there first (docs/eudi-wallet.md, "The test
 * environment"): written aside, then linked into place, so a sibling worker starting at the same time
 * reads either no file or the whole of the one that won (link() never overwrites).
 */
export async function readOrWriteOnce<T>(file: string, generate: () => Promise<T>): Promise<T> {
  const read = async () => {
    const text = await readFile(file, 'utf8').catch(() => null);
    return text ? (JSON.parse(text) as T) : null;
  };
  const existing = await read();
  if (existing) return existing;
  await mkdir(dirname(file), { recursive: true });
  const value = await generate();
  const draft = `${file}.${randomBytes(6).toString('hex')}`;
  await writeFile(draft, JSON.stringify(value), { mode: 0o600, flag: 'wx' });
  try {
    await link(draft, file);
    return value;
  } catch (error) {
    const written = (error as NodeJS.ErrnoException).code === 'EEXIST' ? await read() : null;
    if (!written) throw error;
    return written;
  } finally {
    await unlink(draft);
  }
}
