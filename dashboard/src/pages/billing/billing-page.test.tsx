import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { http, ok, page, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import type { Schemas } from '../../api/client';
import { formatMoney, overageAmount, projectedCharge, statementsCsv } from './billing-math';
import { BillingPage } from './billing-page';

const GIB = 2 ** 30;
const USAGE = {
  month: '2026-11',
  mode: 'live',
  plan: 'growth',
  limits: { max_file_size_bytes: 200 * 2 ** 20, storage_bytes: GIB, bandwidth_bytes: 10 * GIB, bandwidth_hard_cap: false },
  storage_used_bytes: 0,
  storage_reserved_bytes: 0,
  bandwidth_bytes: 13.25 * GIB,
  overage_bytes: 3.25 * GIB,
  overage: { price_per_gib: 10, currency: 'usd', amount_to_date: 33 },
};
const STATEMENT: Schemas['UsageStatementResponseDto'] = {
  id: 'stmt_01aaaaaaaaaaaaaaaaaaaaaaaa',
  object: 'usage_statement',
  month: '2026-10',
  mode: 'live',
  plan: 'growth',
  included_bandwidth_bytes: 10 * GIB,
  bandwidth_bytes: 12 * GIB,
  overage_bytes: 2 * GIB,
  price_per_gib: 10,
  currency: 'usd',
  amount: 20,
  created_at: '2026-11-01T00:05:00.000Z',
  reported_at: '2026-11-01T00:06:00.000Z',
  report_error: null,
};

beforeEach(() => {
  server.use(
    http.get('*/v1/usage', () => ok(USAGE)),
    http.get('*/v1/usage/statements', () => page([STATEMENT])),
  );
});

describe('the billing page', () => {
  it("shows the month so far against the plan, the charge to date, and past statements", async () => {
    renderAt('/live/billing', <BillingPage />);
    expect(await screen.findByText('2026-11 so far: Growth plan')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: /Bandwidth: 100% of the included bandwidth used/ })).toBeInTheDocument();
    expect(screen.getByTestId('overage-bytes')).toHaveTextContent('3.3 GB');
    expect(screen.getByTestId('charge-to-date')).toHaveTextContent('$0.33');
    const table = await screen.findByRole('table', { name: 'Statements' });
    expect(within(table).getByText('2026-10')).toBeInTheDocument();
    expect(within(table).getByText('$0.20')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeInTheDocument();
  });

  it('tells the free plan it is a hard cap', async () => {
    server.use(http.get('*/v1/usage', () => ok({ ...USAGE, plan: 'free', limits: { ...USAGE.limits, bandwidth_hard_cap: true }, overage_bytes: 0, overage: { price_per_gib: null, currency: 'usd', amount_to_date: 0 } })));
    renderAt('/live/billing', <BillingPage />);
    expect(await screen.findByText(/no overage is billed/)).toBeInTheDocument();
  });
});

describe('billing arithmetic (the server’s rule, in integers)', () => {
  it('rounds half up like the statements', () => {
    expect(overageAmount(3.25 * GIB, 10)).toBe(33);
    expect(overageAmount(1, 10)).toBe(0);
    expect(overageAmount(GIB, 10)).toBe(10);
    expect(overageAmount(-5, 10)).toBe(0);
  });

  it('projects the month from the share of it that has passed', () => {
    // Half of November gone with 10 GiB used: 20 GiB by the end, 10 over at 10 = 100.
    expect(projectedCharge({ ...USAGE, bandwidth_bytes: 10 * GIB }, new Date('2026-11-16T00:00:00.000Z'))).toBe(100);
    expect(projectedCharge({ ...USAGE, overage: { price_per_gib: null } }, new Date('2026-11-16T00:00:00.000Z'))).toBe(0);
  });

  it('writes money and CSV', () => {
    expect(formatMoney(3300, 'usd')).toBe('$33.00');
    expect(statementsCsv([STATEMENT])).toBe(
      'id,month,mode,plan,included_bandwidth_bytes,bandwidth_bytes,overage_bytes,price_per_gib,currency,amount,created_at\r\n' +
        `stmt_01aaaaaaaaaaaaaaaaaaaaaaaa,2026-10,live,growth,${10 * GIB},${12 * GIB},${2 * GIB},10,usd,20,2026-11-01T00:05:00.000Z\r\n`,
    );
  });
});
