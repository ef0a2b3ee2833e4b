import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatBucket, formatNumber } from '../format';
import { useText } from '../i18n';

export interface ChartSeries {
  label: string;
  /** A CSS colour with enough contrast on white. */
  color: string;
  values: number[];
}

const HEIGHT = 220;
// The axes' font, set here so the labels can be measured before uPlot draws them.
const AXIS_FONT = '12px system-ui, sans-serif';
// The least room between two time labels, in CSS pixels.
const LABEL_GAP = 16;

let measuring: CanvasRenderingContext2D | null = null;

/** The width of a label in the axis font. */
function labelWidth(text: string): number {
  measuring ??= document.createElement('canvas').getContext('2d');
  if (!measuring) return text.length * 8;
  measuring.font = AXIS_FONT;
  return measuring.measureText(text).width;
}

/**
 * Counts over time drawn by uPlot (a small, fast canvas chart), with the same numbers in a table
 * that screen readers read instead (docs/console.md, "Overview"): the canvas is hidden from them.
 */
export function TimeChart({
  id,
  caption,
  starts,
  bucket,
  series,
}: {
  id: string;
  caption: string;
  starts: string[];
  bucket: 'hour' | 'day';
  series: ChartSeries[];
}) {
  const { t, language } = useText();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = () => Math.max(240, element.clientWidth);
    // uPlot leaves `space` pixels at least between two time ticks (its default, 50, is narrower than an
    // hour's label "7 dec. 14:00", whose 24 labels overlapped at desktop width): as wide as the widest
    // label, so it thins them to every 2, 3, 4… hours or days as the box narrows.
    const timeSpace = Math.max(...starts.map((start) => labelWidth(formatBucket(language, start, bucket))), 0) + LABEL_GAP;
    const plot = new uPlot(
      {
        width: width(),
        height: HEIGHT,
        // Day buckets are UTC days: draw them at UTC midnight whatever the reader's zone.
        tzDate: bucket === 'day' ? (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC') : undefined,
        series: [
          { label: t('time'), value: (_u, ts) => (ts === null ? '' : formatBucket(language, ts * 1000, bucket)) },
          ...series.map((line) => ({ label: line.label, stroke: line.color, width: 2, points: { show: true, size: 5 } })),
        ],
        axes: [
          { font: AXIS_FONT, space: timeSpace, values: (_u, splits) => splits.map((ts) => formatBucket(language, ts * 1000, bucket)) },
          { font: AXIS_FONT, values: (_u, splits) => splits.map((value) => formatNumber(language, value)) },
        ],
        scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      },
      [starts.map((start) => Date.parse(start) / 1000), ...series.map((line) => line.values)],
      element,
    );
    // A phone turned, a window resized: the chart follows its box.
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [starts, series, bucket, language]);

  return (
    <figure class="chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`}>{caption}</figcaption>
      <div ref={box} class="chart-canvas" aria-hidden="true" />
      {/* In a box of its own: a table keeps its width even when the class asks for one pixel. */}
      <div class="visually-hidden">
        <table data-chart-table={id}>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{t('time')}</th>
              {series.map((line) => (
                <th key={line.label} scope="col">
                  {line.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {starts.map((start, i) => (
              <tr key={start}>
                <th scope="row">{formatBucket(language, start, bucket)}</th>
                {series.map((line) => (
                  <td key={line.label}>{formatNumber(language, line.values[i])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
