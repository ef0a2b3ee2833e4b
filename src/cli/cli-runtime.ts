import type { Type } from '@nestjs/common';

/** What a command's action may use: the CLI's Nest services (started on first use) and the answer slot. */
export interface CliRuntime {
  service<T>(type: Type<T>): Promise<T>;
  /** The command's one JSON value, printed on stdout. */
  answer(value: unknown): void;
}
