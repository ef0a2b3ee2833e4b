import { readFileSync } from 'node:fs';
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

/**
 * A variable naming a file that is read and parsed with the rest of the environment, so a bad file stops
 * the start before anything connects; unset, `empty`. Problems name the variable, never the content.
 */
export const fileVariable = <T>(empty: T, parse: (text: string) => { value: T } | { problems: string[] }) =>
  optionalText.transform((path, ctx): T => {
    if (!path) return empty;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `the file cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
      return z.NEVER;
    }
    const parsed = parse(text);
    if ('value' in parsed) return parsed.value;
    for (const problem of parsed.problems) ctx.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  });

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
