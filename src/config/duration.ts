const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+)(ms|s|m|h|d)?$/;

/** Parses `500ms`, `30s`, `5m`, `2h`, `1d` or whole seconds (`45`) into milliseconds; null when malformed. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  const unit = (match[2] ?? 's') as keyof typeof UNIT_MS;
  return Number(match[1]) * UNIT_MS[unit];
}
