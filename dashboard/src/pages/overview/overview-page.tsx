import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { dashboardApi } from '../../api/dashboard';
import { formatBytes, formatCount } from '../../lib/format';
import { useMode } from '../../lib/mode';
import { useSession } from '../../shell/session';
import { PageHeader, Section } from '../../ui/page';
import { ErrorMessage, Loading } from '../../ui/states';
import { Onboarding } from './onboarding';

// The charts load after the page's numbers are on screen (their own chunk, ~19 kB compressed).
const UsageCharts = lazy(async () => ({ default: (await import('./usage-charts')).UsageCharts }));

function Meter({ label, used, limit }: { label: string; used: number; limit: number }) {
  const share = limit > 0 ? Math.min(used / limit, 1) : 0;
  return (
    <div className="meter">
      <div className="meter-label">
        <span>{label}</span>
        <span>
          {formatBytes(used)} of {formatBytes(limit)}
        </span>
      </div>
      <progress max={1} value={share} aria-label={`${label}: ${Math.round(share * 100)}% used`} />
    </div>
  );
}

export function OverviewPage() {
  const mode = useMode();
  const session = useSession();
  const overview = useQuery({ queryKey: [mode, 'overview'], queryFn: () => dashboardApi.overview(mode) });
  const usage = overview.data?.usage;
  const daily = overview.data?.daily ?? [];
  const downloads = daily.reduce((sum, day) => sum + day.downloads, 0);
  const bytes = daily.reduce((sum, day) => sum + day.bytes, 0);
  return (
    <>
      <PageHeader title="Overview" description={session.merchant_name ? `${session.merchant_name}, ${mode} mode.` : undefined} />
      <Onboarding />
      {overview.isPending && <Loading what="usage" />}
      <ErrorMessage error={overview.error} />
      {usage && (
        <Section title={`Plan: ${usage.plan.charAt(0).toUpperCase()}${usage.plan.slice(1)}`}>
          <div className="meters">
            <Meter label="Storage" used={usage.usage[mode].storage_used_bytes + usage.usage[mode].storage_reserved_bytes} limit={usage.limits.storage_bytes} />
            <Meter label={`Bandwidth in ${usage.month}`} used={usage.usage[mode].bandwidth_bytes} limit={usage.limits.bandwidth_bytes} />
          </div>
          <p className="hint">Each mode is metered on its own against the plan. {usage.usage[mode].overage_bytes > 0 ? `Overage this month: ${formatBytes(usage.usage[mode].overage_bytes)}.` : ''}</p>
        </Section>
      )}
      {overview.data && (
        <Section title="Last 30 days">
          <p className="stats">
            <span>
              <strong>{formatCount(downloads)}</strong> downloads
            </span>
            <span>
              <strong>{formatBytes(bytes)}</strong> delivered
            </span>
          </p>
          {downloads === 0 && <p className="muted">No downloads in the last 30 days yet.</p>}
          <Suspense fallback={<Loading what="the charts" />}>
            <UsageCharts daily={daily} />
          </Suspense>
        </Section>
      )}
    </>
  );
}
