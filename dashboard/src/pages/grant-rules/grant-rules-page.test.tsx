import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { http, ok, page, product, resetSent, sentTo, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { GrantRulesPage } from './grant-rules-page';

const COURSE = product({ id: 'prod_01courseaaaaaaaaaaaaaaaaa', name: 'Course' });
const BONUS = product({ id: 'prod_01bonusaaaaaaaaaaaaaaaaaa', name: 'Bonus chapter' });
const RULE = { id: 'rule_01aaaaaaaaaaaaaaaaaaaaaaaa', trigger_product_id: COURSE.id, grant_product_id: BONUS.id, access_duration_days: 30, enabled: true, created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:00.000Z' };

beforeEach(() => {
  resetSent();
  server.use(
    http.get('*/v1/products', ({ request }) => {
      const search = (new URL(request.url).searchParams.get('search') ?? '').toLowerCase();
      return page([COURSE, BONUS].filter((candidate) => candidate.name.toLowerCase().includes(search)));
    }),
    http.get('*/v1/products/:id', ({ params }) => ok([COURSE, BONUS].find((candidate) => candidate.id === params.id) ?? COURSE)),
    http.get('*/v1/grant-rules', () => page([RULE])),
  );
});

describe('grant rules', () => {
  it('adds a rule with two searched products and a duration', async () => {
    server.use(http.post('*/v1/grant-rules', () => ok(RULE, 201)));
    const { user } = renderAt('/test/grant-rules', <GrantRulesPage />);
    await user.type(screen.getByRole('combobox', { name: 'When a customer is granted' }), 'cour');
    await user.click(await screen.findByRole('option', { name: /Course/ }));
    await user.type(screen.getByRole('combobox', { name: 'Also grant them' }), 'bonus');
    await user.click(await screen.findByRole('option', { name: /Bonus chapter/ }));
    await user.type(screen.getByLabelText(/Days of access/), '30');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await waitFor(() => expect(sentTo('POST', '/v1/grant-rules')).toHaveLength(1));
    expect(sentTo('POST', '/v1/grant-rules')[0].body).toEqual({ trigger_product_id: COURSE.id, grant_product_id: BONUS.id, access_duration_days: 30 });
    expect(sentTo('POST', '/v1/grant-rules')[0].headers.get('Idempotency-Key')).toBeTruthy();
  });

  it('asks for both products first', async () => {
    const { user } = renderAt('/test/grant-rules', <GrantRulesPage />);
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    expect(screen.getByRole('combobox', { name: 'When a customer is granted' })).toHaveAccessibleDescription(/Choose the product whose grant fires the rule\./);
    expect(sentTo('POST', '/v1/grant-rules')).toHaveLength(0);
  });

  it('lists rules by product name, turns one off and deletes one after confirming', async () => {
    server.use(
      http.patch('*/v1/grant-rules/:id', () => ok({ ...RULE, enabled: false })),
      http.delete('*/v1/grant-rules/:id', () => ok({ id: RULE.id, deleted: true })),
    );
    const { user } = renderAt('/test/grant-rules', <GrantRulesPage />);
    const table = await screen.findByRole('table', { name: 'Grant rules' });
    await within(table).findByRole('link', { name: 'Bonus chapter' });
    await user.click(within(table).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(sentTo('PATCH', `/v1/grant-rules/${RULE.id}`)[0]?.body).toEqual({ enabled: false }));
    await user.click(within(table).getByRole('button', { name: `Delete rule ${RULE.id}` }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete rule' }));
    await waitFor(() => expect(sentTo('DELETE', `/v1/grant-rules/${RULE.id}`)).toHaveLength(1));
  });
});
