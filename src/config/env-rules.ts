import { z } from 'zod';
import { parseDuration } from './duration.js';

/** The rules variables share, for the core schema and the providers' fragments (docs/providers.md). */
export const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const ms = parseDuration(text);
      if (ms === null) {
        ctx.addIssue({ code: 'custom', message: 'must be a duration such as 500ms, 30s, 5m, 2h or whole seconds' });
        return z.NEVER;
      }
      return ms;
    });

export const durationList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const delays = text.split(',').map((part) => parseDuration(part.trim()));
      if (delays.some((d) => d === null)) {
        ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of durations, e.g. 250ms,1s' });
        return z.NEVER;
      }
      return delays as number[];
    });

export const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });
export const optionalText = z.string().min(1).optional();

/** What a fragment's cross-checks see beside its own variables. */
export interface EnvContext {
  production: boolean;
  providers: readonly string[];
}

/** Adds a problem naming `variable` (never its value) to the start's report. */
export type EnvIssue = (variable: string, message: string) => void;

export const issueOn =
  (ctx: z.core.$RefinementCtx): EnvIssue =>
  (variable, message) =>
    ctx.addIssue({ code: 'custom', path: [variable], message });
