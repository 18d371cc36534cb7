import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DailyDownloads } from '../../api/dashboard';

/** Downloads and bandwidth per day, as bar charts (recharts). */
export function UsageCharts({ daily }: { daily: DailyDownloads[] }) {
  const data = daily.map((day) => ({ day: day.day.slice(5), downloads: day.downloads, megabytes: Number((day.bytes / 1048576).toFixed(2)) }));
  return (
    <div className="charts">
      <figure aria-label="Downloads per day" data-testid="downloads-chart">
        <figcaption>Downloads per day</figcaption>
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={data} margin={{ left: -20, right: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="day" tick={{ fontSize: 11 }} minTickGap={12} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
            <Tooltip />
            <Bar dataKey="downloads" name="Downloads" fill="#4338ca" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </figure>
      <figure aria-label="Bandwidth per day in MB" data-testid="bandwidth-chart">
        <figcaption>Bandwidth per day (MB)</figcaption>
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={data} margin={{ left: -20, right: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="day" tick={{ fontSize: 11 }} minTickGap={12} />
            <YAxis tick={{ fontSize: 11 }} />
            <Tooltip />
            <Bar dataKey="megabytes" name="MB" fill="#b45309" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </figure>
    </div>
  );
}
