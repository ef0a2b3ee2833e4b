import type { Command } from 'commander';
import type { CliRuntime } from '../cli-runtime.js';

const signingKeysService = () => import('../../tokens/signing-keys.service.js').then((module) => module.SigningKeysService);

export function addTokenCommands(program: Command, cli: CliRuntime): void {
  const tokens = program.command('tokens').description('The keys that sign member tokens (docs/otp-and-tokens.md)');

  tokens
    .command('rotate-key')
    .description('A new JWT signing key; the old one stays in the JWKS until its last token expires')
    .action(async () => {
      const rotated = await (await cli.service(signingKeysService)).rotate();
      cli.answer({ kid: rotated.kid, alg: rotated.alg, retired: rotated.retired });
    });
}
