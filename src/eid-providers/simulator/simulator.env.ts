import { duration } from '../../config/env-rules.js';

/** The simulator's variables (docs/deployment.md), validated at start with the rest. */
export const SIMULATOR_ENV = {
  SIMULATOR_START_TIMEOUT: duration('30s'),
  // How long a digital ID card's code shown by the simulated app may be verified (docs/idcard.md).
  SIMULATOR_IDCARD_LIFETIME: duration('30s'),
};
