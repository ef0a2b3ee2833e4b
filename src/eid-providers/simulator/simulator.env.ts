import { duration } from '../../config/env-rules.js';

/** The simulator's variables (docs/deployment.md), validated at start with the rest. */
export const SIMULATOR_ENV = {
  SIMULATOR_START_TIMEOUT: duration('30s'),
};
