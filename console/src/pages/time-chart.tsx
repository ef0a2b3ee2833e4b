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
          { values: (_u, splits) => splits.map((ts) => formatBucket(language, ts * 1000, bucket)) },
          { values: (_u, splits) => splits.map((value) => formatNumber(language, value)) },
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
