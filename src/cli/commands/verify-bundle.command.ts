import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { JSONWebKeySet } from 'jose';
import type { CliRuntime } from '../cli-runtime.js';

const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8'));

export function addVerifyBundleCommand(program: Command, cli: CliRuntime): void {
  program
    .command('verify-bundle')
    .description('Check an evidence bundle offline, part by part: no network, no service, no database (docs/transparency.md)')
    .argument('<file>', 'the bundle: the answer of GET /api/v1/sessions/{id}/bundle')
    .option('--proof <file>', 'a fresher inclusion proof to check instead of the bundled one: the answer of GET /transparency/proof')
    .option('--jwks <file>', "more keys to accept, e.g. a later /.well-known/jwks.json that signed that proof's tree head")
    .action(async (file: string, options: { proof?: string; jwks?: string }) => {
      // Loaded here: the other commands need none of it.
      const { verifyBundle } = await import('../../transparency/bundle-verifier.js');
      const verdict = await verifyBundle(await readJson(file), {
        proof: options.proof ? await readJson(options.proof) : undefined,
        extraKeys: options.jwks ? ((await readJson(options.jwks)) as JSONWebKeySet) : undefined,
      });
      cli.answer(verdict, verdict.valid ? 0 : 1);
    });
}
