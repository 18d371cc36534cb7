import { AxisBottom, AxisLeft } from '@visx/axis';
import { GridRows } from '@visx/grid';
import { Group } from '@visx/group';
import { ParentSize } from '@visx/responsive';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import type { DailyDownloads } from '../../api/dashboard';

const HEIGHT = 220;
const MARGIN = { top: 8, right: 8, bottom: 28, left: 40 };

interface Point {
  day: string;
  value: number;
}

function BarChart({ points, width, color, label, unit }: { points: Point[]; width: number; color: string; label: string; unit: string }) {
  const innerWidth = Math.max(width - MARGIN.left - MARGIN.right, 0);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = scaleBand<string>({ domain: points.map((point) => point.day), range: [0, innerWidth], padding: 0.2 });
  const max = Math.max(...points.map((point) => point.value), 1);
  const y = scaleLinear<number>({ domain: [0, max], range: [innerHeight, 0], nice: true });
  return (
    <svg width={width} height={HEIGHT} role="img" aria-label={label} className="chart">
      <Group left={MARGIN.left} top={MARGIN.top}>
        <GridRows scale={y} width={innerWidth} stroke="#e5e7eb" numTicks={4} />
        {points.map((point) => {
          const barHeight = innerHeight - (y(point.value) ?? innerHeight);
          return (
            <Bar key={point.day} className="chart-bar" x={x(point.day)} y={innerHeight - barHeight} width={x.bandwidth()} height={barHeight} fill={color}>
              <title>{`${point.day}: ${point.value} ${unit}`}</title>
            </Bar>
          );
        })}
        <AxisLeft scale={y} numTicks={4} tickLabelProps={{ fontSize: 11, fill: '#4b5563' }} stroke="#9ca3af" tickStroke="#9ca3af" />
        <AxisBottom top={innerHeight} scale={x} numTicks={6} tickValues={points.filter((_, index) => index % 5 === 0).map((point) => point.day)} tickLabelProps={{ fontSize: 11, fill: '#4b5563' }} stroke="#9ca3af" tickStroke="#9ca3af" />
      </Group>
    </svg>
  );
}

/**
 * The chart's box: as tall as the chart. ParentSize's default (height 100% of the figure) resolved
 * against the grid row on narrow screens, so the chart overflowed its figure: cut off below its
 * title, over the next one, and beyond the page's scroll height.
 */
const FRAME = { width: '100%', height: HEIGHT };

/** Downloads and bandwidth per day for 30 days, as bar charts (visx: SVG, a bar's value on hover). */
export function UsageCharts({ daily }: { daily: DailyDownloads[] }) {
  const downloads = daily.map((day) => ({ day: day.day.slice(5), value: day.downloads }));
  const megabytes = daily.map((day) => ({ day: day.day.slice(5), value: Number((day.bytes / 1048576).toFixed(2)) }));
  return (
    <div className="charts">
      <figure data-testid="downloads-chart">
        <figcaption>Downloads per day</figcaption>
        <ParentSize debounceTime={50} parentSizeStyles={FRAME}>{({ width }) => <BarChart points={downloads} width={width} color="#4338ca" label="Downloads per day, last 30 days" unit="downloads" />}</ParentSize>
      </figure>
      <figure data-testid="bandwidth-chart">
        <figcaption>Bandwidth per day (MB)</figcaption>
        <ParentSize debounceTime={50} parentSizeStyles={FRAME}>{({ width }) => <BarChart points={megabytes} width={width} color="#b45309" label="Bandwidth per day in MB, last 30 days" unit="MB" />}</ParentSize>
      </figure>
    </div>
  );
}
