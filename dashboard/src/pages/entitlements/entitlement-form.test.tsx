import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { entitlement } from '../../../test/api-mock';
import { EntitlementForm, type EntitlementChanges } from './entitlement-form';

const ENTITLEMENT = entitlement({ expires_at: '2099-01-01T00:00:00.000Z', usage_count: 4, usage_limit: 10, metadata: { tier: 'gold' } });

describe('the entitlement form', () => {
  it('starts from the entitlement, and sends a new end, no limit and new metadata', async () => {
    const onSubmit = vi.fn<(body: EntitlementChanges) => void>();
    const user = userEvent.setup();
    render(<EntitlementForm entitlement={ENTITLEMENT} pending={false} error={null} onSubmit={onSubmit} onCancel={() => undefined} />);
    expect(screen.getByLabelText(/Usage limit/)).toHaveValue('10');
    expect(screen.getByLabelText(/Metadata/)).toHaveValue('{\n  "tier": "gold"\n}');
    await user.clear(screen.getByLabelText(/Access ends/));
    await user.type(screen.getByLabelText(/Access ends/), '2098-06-30T12:00');
    await user.clear(screen.getByLabelText(/Usage limit/));
    await user.clear(screen.getByLabelText(/Metadata/));
    await user.type(screen.getByLabelText(/Metadata/), '{{"tier": "platinum"}');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onSubmit).toHaveBeenCalledWith({ expires_at: new Date('2098-06-30T12:00').toISOString(), usage_limit: null, metadata: { tier: 'platinum' } });
  });

  it('refuses a limit below the uses recorded and a past end, in plain words', async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(<EntitlementForm entitlement={ENTITLEMENT} pending={false} error={null} onSubmit={onSubmit} onCancel={() => undefined} />);
    await user.clear(screen.getByLabelText(/Usage limit/));
    await user.type(screen.getByLabelText(/Usage limit/), '2');
    await user.clear(screen.getByLabelText(/Access ends/));
    await user.type(screen.getByLabelText(/Access ends/), '2001-01-01T00:00');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.getByLabelText(/Usage limit/)).toHaveAccessibleDescription(/at least the 4 uses recorded/);
    expect(screen.getByLabelText(/Access ends/)).toHaveAccessibleDescription(/Choose a time in the future/);
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
