import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { dashboardApi } from '../api/dashboard';
import { ErrorMessage, formatBytes, Loading, Section } from '../components';

export function OverviewPage() {
  const overview = useQuery({ queryKey: ['overview'], queryFn: dashboardApi.overview });
  if (overview.isPending) return <Loading what="the overview" />;
  if (overview.error) return <ErrorMessage error={overview.error} />;
  const { usage, daily } = overview.data;
  const session = usage.usage;
  const totalDownloads = daily.reduce((sum, day) => sum + day.downloads, 0);
  const chartData = daily.map((day) => ({ day: day.day.slice(5), downloads: day.downloads, megabytes: Number((day.bytes / 1048576).toFixed(2)) }));
  return (
    <>
      <h1>Overview</h1>
      <Section title="Plan and limits">
        <p>
          Plan: <strong>{usage.plan}</strong> · month {usage.month}
        </p>
        <table>
          <thead>
            <tr>
              <th scope="col">Mode</th>
              <th scope="col">Storage used</th>
              <th scope="col">Storage limit</th>
              <th scope="col">Bandwidth this month</th>
              <th scope="col">Bandwidth included</th>
            </tr>
          </thead>
          <tbody>
            {(['live', 'test'] as const).map((mode) => (
              <tr key={mode}>
                <th scope="row">{mode}</th>
                <td>
                  {formatBytes(session[mode].storage_used_bytes + session[mode].storage_reserved_bytes)}{' '}
                  <progress aria-label={`${mode} storage used`} max={usage.limits.storage_bytes} value={session[mode].storage_used_bytes} />
                </td>
                <td>{formatBytes(usage.limits.storage_bytes)}</td>
                <td>
                  {formatBytes(session[mode].bandwidth_bytes)}{' '}
                  <progress aria-label={`${mode} bandwidth used`} max={usage.limits.bandwidth_bytes} value={session[mode].bandwidth_bytes} />
                </td>
                <td>{formatBytes(usage.limits.bandwidth_bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Section title="Last 30 days">
        {totalDownloads === 0 && <p className="empty">No downloads in the last 30 days yet.</p>}
        <div className="charts">
          <figure aria-label="Downloads per day" data-testid="downloads-chart">
            <figcaption>Downloads per day</figcaption>
            <ResponsiveContainer width="100%" height={240}>
              <BarChart data={chartData}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="day" />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Bar dataKey="downloads" fill="#1e3a8a" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </figure>
          <figure aria-label="Bandwidth per day in MB" data-testid="bandwidth-chart">
            <figcaption>Bandwidth per day (MB)</figcaption>
            <ResponsiveContainer width="100%" height={240}>
              <BarChart data={chartData}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="day" />
                <YAxis />
                <Tooltip />
                <Bar dataKey="megabytes" fill="#b45309" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </figure>
        </div>
      </Section>
    </>
  );
}
