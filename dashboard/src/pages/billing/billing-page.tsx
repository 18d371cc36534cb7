import { useQuery } from '@tanstack/react-query';
import { unwrap, unwrapPage, type Schemas } from '../../api/client';
import { formatBytes } from '../../lib/format';
import { useListState, usePage } from '../../lib/list';
import { useApi, useMode } from '../../lib/mode';
import { ListView } from '../../ui/list-view';
import { PageHeader, Section } from '../../ui/page';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Table } from '../../ui/table';
import { formatMoney, projectedCharge, statementsCsv } from './billing-math';

type Statement = Schemas['UsageStatementResponseDto'];

/** Saves the statements on screen as a CSV file. */
function downloadCsv(statements: readonly Statement[], mode: string): void {
  const url = URL.createObjectURL(new Blob([statementsCsv(statements)], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `statements-${mode}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

/** This month against the plan (GET /v1/usage) and the closed months' statements (GET /v1/usage/statements). */
export function BillingPage() {
  const api = useApi();
  const mode = useMode();
  const usage = useQuery({ queryKey: [mode, 'usage'], queryFn: async () => unwrap(await api.GET('/v1/usage')) });
  const list = useListState([] as const);
  const statements = usePage('usage-statements', list, async (paging) => unwrapPage(await api.GET('/v1/usage/statements', { params: { query: paging } })));
  const month = usage.data;
  const share = month && month.limits.bandwidth_bytes > 0 ? Math.min(month.bandwidth_bytes / month.limits.bandwidth_bytes, 1) : 0;
  return (
    <>
      <PageHeader title="Billing" description={`Bandwidth past the plan's included bandwidth is billed per GiB (${mode} mode is metered on its own).`} />
      {usage.isPending && <Loading what="this month's usage" />}
      <ErrorMessage error={usage.error} />
      {month && (
        <Section title={`${month.month} so far: ${month.plan.charAt(0).toUpperCase()}${month.plan.slice(1)} plan`}>
          <div className="meters">
            <div className="meter">
              <div className="meter-label">
                <span>Bandwidth</span>
                <span>
                  {formatBytes(month.bandwidth_bytes)} of {formatBytes(month.limits.bandwidth_bytes)} included
                </span>
              </div>
              <progress max={1} value={share} aria-label={`Bandwidth: ${Math.round(share * 100)}% of the included bandwidth used`} />
            </div>
          </div>
          {month.overage.price_per_gib === null ? (
            <p className="hint">The free plan refuses downloads past its bandwidth: no overage is billed.</p>
          ) : (
            <dl className="facts" aria-label="This month's charge">
              <dt>Overage</dt>
              <dd data-testid="overage-bytes">{formatBytes(month.overage_bytes)}</dd>
              <dt>Price</dt>
              <dd>{formatMoney(month.overage.price_per_gib, month.overage.currency)} per GB past the included bandwidth</dd>
              <dt>Charge to date</dt>
              <dd data-testid="charge-to-date">{formatMoney(month.overage.amount_to_date, month.overage.currency)}</dd>
              <dt>Projected for the month</dt>
              <dd data-testid="projected-charge">{formatMoney(projectedCharge(month, new Date()), month.overage.currency)}, if the rest of the month goes as it went so far</dd>
            </dl>
          )}
        </Section>
      )}
      <Section title="Statements">
        <ListView
          page={statements}
          list={list}
          noun="statements"
          empty={
            <Empty title="No statements yet.">
              <p>A statement is written for each month once it ends.</p>
            </Empty>
          }
        >
          {(rows) => (
            <>
              <p>
                <button type="button" className="secondary" onClick={() => downloadCsv(rows, mode)}>
                  Download CSV
                </button>
              </p>
              <Table<Statement>
                caption="Statements"
                rows={rows}
                rowKey={(statement) => statement.id}
                columns={[
                  { header: 'Month', rowHeader: true, cell: (statement) => statement.month },
                  { header: 'Bandwidth', cell: (statement) => `${formatBytes(statement.bandwidth_bytes)} of ${formatBytes(statement.included_bandwidth_bytes)}` },
                  { header: 'Overage', cell: (statement) => formatBytes(statement.overage_bytes) },
                  { header: 'Amount', cell: (statement) => formatMoney(statement.amount, statement.currency) },
                  { header: 'Reported to Stripe', cell: (statement) => (statement.reported_at ? 'yes' : statement.report_error ? `failed: ${statement.report_error}` : '—') },
                ]}
              />
            </>
          )}
        </ListView>
      </Section>
    </>
  );
}
