import { registerAs, type ConfigType } from '@nestjs/config';
import { validatedEnv } from '../../app.env.js';

export const simulatorConfig = registerAs('simulator', () => ({
  /** An order nobody scans fails with startFailed after this (as BankID's, docs/bankid.md: about 30 s). */
  startTimeoutMs: validatedEnv().SIMULATOR_START_TIMEOUT,
  /** How long a shown ID card's code may be verified, once (docs/idcard.md). */
  idCardLifetimeMs: validatedEnv().SIMULATOR_IDCARD_LIFETIME,
}));
export type SimulatorConfig = ConfigType<typeof simulatorConfig>;
