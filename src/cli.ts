#!/usr/bin/env node
import { runCli } from './cli/run-cli.js';

// One JSON value on stdout; errors as JSON on stderr, followed by the usage when the command line was wrong.
const { exitCode, output, help } = await runCli(process.argv.slice(2));
if (exitCode === 0) {
  process.stdout.write(output === undefined ? (help ?? '') : `${JSON.stringify(output, null, 2)}\n`);
} else {
  process.stderr.write(`${JSON.stringify(output, null, 2)}\n${help ? `\n${help}` : ''}`);
}
process.exitCode = exitCode;
