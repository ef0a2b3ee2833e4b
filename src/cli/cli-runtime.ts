import type { Type } from '@nestjs/common';

/** Loads a service's class only when a command runs, so `--help` does not load the application. */
export type ServiceLoader<T> = () => Promise<Type<T>>;

/** What a command's action may use: the CLI's Nest services (started on first use) and the answer slot. */
export interface CliRuntime {
  service<T>(load: ServiceLoader<T>): Promise<T>;
  /** The command's one JSON value, printed on stdout; with exit code 1 (a check that failed), on stderr. */
  answer(value: unknown, exitCode?: 0 | 1): void;
}
