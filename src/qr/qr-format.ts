export const QR_FORMATS = ['json', 'png', 'svg'] as const;
export type QrFormat = (typeof QR_FORMATS)[number];

/** `?format=` wins; else the first image type the Accept header names; else JSON. */
export function negotiateQrFormat(format: QrFormat | undefined, accept: string | undefined): QrFormat {
  if (format) return format;
  const header = accept ?? '';
  const png = header.indexOf('image/png');
  const svg = header.indexOf('image/svg+xml');
  if (png >= 0 && (svg < 0 || png < svg)) return 'png';
  if (svg >= 0) return 'svg';
  return 'json';
}
