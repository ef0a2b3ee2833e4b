import { runCli } from './cli/run-cli.js';

const { exitCode, output } = await runCli(process.argv.slice(2));
(exitCode === 0 ? process.stdout : process.stderr).write(`${JSON.stringify(output, null, 2)}\n`);
process.exitCode = exitCode;
