import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { CommanderError } from 'commander';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { ConfigValidationError } from '../config/env.validation.js';
import { buildProgram } from './cli-program.js';
import type { ServiceLoader } from './cli-runtime.js';

/** `T` is the shape the caller expects: an object, or an array for the list commands. */
export interface CliResult<T = Record<string, unknown>> {
  /** 0 done (or help shown), 1 the command failed, 2 the command line is wrong. */
  exitCode: number;
  /** The command's JSON value, or `{ error: { code, message } }`; undefined when only help was asked for. */
  output: T;
  /** Usage text: the answer to --help, or shown after a usage error. */
  help?: string;
}

/** `eid-gateway <group> <command> [--flags]`, run in this process; never throws, never prints a stack trace. */
export async function runCli<T = Record<string, unknown>>(argv: string[]): Promise<CliResult<T>> {
  let context: INestApplicationContext | undefined;
  let answer: unknown;
  let answerExitCode = 0;
  let out = '';
  let err = '';
  let usageError = '';
  const service = async <S>(load: ServiceLoader<S>): Promise<S> => {
    context ??= await createContext();
    return context.get(await load());
  };
  const program = buildProgram(
    {
      service,
      answer: (value, exitCode = 0) => {
        answer = value;
        answerExitCode = exitCode;
      },
    },
    { writeOut: (text) => (out += text), writeErr: (text) => (err += text), outputError: (text) => (usageError += text) },
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
    return { exitCode: answerExitCode, output: answer as T };
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return { exitCode: 0, output: undefined as T, help: out };
      // A group without its command prints the group's usage and no message of its own.
      const message = usageError.trim().replace(/^error: /, '') || 'a command is required';
      return { exitCode: 2, output: { error: { code: 'usage', message } } as T, help: err.replace(/^\n+/, '') };
    }
    return { exitCode: 1, output: { error: describe(error) } as T };
  } finally {
    await context?.close();
  }
}

/** Only the services the CLI drives, without HTTP or background jobs, loaded when a command first needs one. */
async function createContext(): Promise<INestApplicationContext> {
  const [{ NestFactory }, { CliModule }, { validatedEnv }] = await Promise.all([
    import('@nestjs/core'),
    import('./cli.module.js'),
    import('../app.env.js'),
  ]);
  // As main.ts: the whole environment is valid before a module reads its part (src/app.env.ts).
  validatedEnv();
  return NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false });
}

function describe(error: unknown): { code: string; message: string } {
  if (error instanceof DomainException) return { code: error.code, message: error.message };
  if (error instanceof ConfigValidationError) return { code: 'config', message: error.message };
  return { code: 'error', message: error instanceof Error ? error.message : String(error) };
}
