import type { Language } from './i18n';

// Numbers, shares and durations in the reader's language (docs/console.md): Swedish groups thousands
// with a space and writes decimals with a comma; English with a comma and a point.
const locale = (language: Language) => (language === 'sv' ? 'sv-SE' : 'en-GB');

export function formatNumber(language: Language, value: number): string {
  return new Intl.NumberFormat(locale(language)).format(value);
}

export function formatPercent(language: Language, share: number | null | undefined): string {
  if (share === null || share === undefined) return '—';
  return new Intl.NumberFormat(locale(language), { style: 'percent', maximumFractionDigits: 1 }).format(share);
}

/** Milliseconds under a second as such, then seconds with one decimal, then minutes. */
export function formatDuration(language: Language, ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  const unit = (value: number, name: 'millisecond' | 'second' | 'minute', digits: number) =>
    new Intl.NumberFormat(locale(language), { style: 'unit', unit: name, unitDisplay: 'short', maximumFractionDigits: digits }).format(
      value,
    );
  if (ms < 1_000) return unit(Math.round(ms), 'millisecond', 0);
  if (ms < 60_000) return unit(ms / 1_000, 'second', 1);
  return unit(ms / 60_000, 'minute', 1);
}

/** The start of a chart bucket: a time of day for hours, a date for days. */
export function formatBucket(language: Language, iso: string | number, bucket: 'hour' | 'day'): string {
  const options: Intl.DateTimeFormatOptions =
    bucket === 'hour'
      ? { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }
      : { day: 'numeric', month: 'short', timeZone: 'UTC' };
  return new Date(iso).toLocaleString(locale(language), options);
}
