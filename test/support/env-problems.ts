import { ConfigValidationError } from '../../src/config/env.validation.js';
import { validateEnv } from '../../src/app.env.js';

/** What the start's validation of the whole environment says of `env`: its problems, none when it passes. */
export function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    validateEnv(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.problems;
    throw error;
  }
}
