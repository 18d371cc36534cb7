import { idempotent, unwrap, unwrapPage, type Schemas } from '../../api/client';
import { useListState, usePage } from '../../lib/list';
import { useApi, useModePath } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { useWrite } from '../../lib/write';
import { Badge } from '../../ui/badge';
import { ConfirmButton } from '../../ui/confirm';
import { ProductLink } from '../../ui/names';
import { PageHeader, Section } from '../../ui/page';
import { ListView } from '../../ui/list-view';
import { Empty, ErrorMessage } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';
import { GrantRuleForm, type GrantRuleBody } from './grant-rule-form';

type Rule = Schemas['GrantRuleResponseDto'];

/** Grant rules: a grant of one product also grants another (source rule), e.g. a bonus or an upgrade path. */
export function GrantRulesPage() {
  const can = useCan();
  const api = useApi();
  const path = useModePath();
  const list = useListState([] as const);
  const page = usePage('grant-rules', list, async (paging) => unwrapPage(await api.GET('/v1/grant-rules', { params: { query: paging } })));
  const create = useWrite({
    mutationFn: async (body: GrantRuleBody, key: string) => unwrap(await api.POST('/v1/grant-rules', { body, ...idempotent(key) })),
    invalidates: [['grant-rules']],
  });
  const update = useWrite({
    mutationFn: async ({ id, enabled }: { id: string; enabled: boolean }) => unwrap(await api.PATCH('/v1/grant-rules/{rule_id}', { params: { path: { rule_id: id } }, body: { enabled } })),
    invalidates: [['grant-rules']],
  });
  const remove = useWrite({
    mutationFn: async (id: string) => unwrap(await api.DELETE('/v1/grant-rules/{rule_id}', { params: { path: { rule_id: id } } })),
    invalidates: [['grant-rules']],
  });
  return (
    <>
      <PageHeader title="Grant rules" description="When a customer is granted one product, also grant them another (source: rule)." back={{ to: path('products'), label: 'Products' }} />
      {can('products:write') && (
        <Section title="New rule">
          <GrantRuleForm key={create.data?.id ?? 'new'} pending={create.isPending} error={create.error} onSubmit={create.run} />
        </Section>
      )}
      <Section title="Rules">
        <ErrorMessage error={update.error ?? remove.error} />
        <ListView page={page} list={list} noun="grant rules" empty={<Empty title="No rules yet." />}>
          {(rows) => (
            <Table<Rule>
              caption="Grant rules"
              rows={rows}
              rowKey={(rule) => rule.id}
              columns={[
                { header: 'When granted', rowHeader: true, cell: (rule) => <ProductLink id={rule.trigger_product_id} /> },
                { header: 'Also grants', cell: (rule) => <ProductLink id={rule.grant_product_id} /> },
                { header: 'Access', cell: (rule) => (rule.access_duration_days ? `${rule.access_duration_days} days` : 'The product’s own') },
                { header: 'State', cell: (rule) => <Badge status={rule.enabled ? 'enabled' : 'disabled'} label={rule.enabled ? 'Fires' : 'Off'} /> },
                { header: 'Added', cell: (rule) => <Time value={rule.created_at} /> },
                {
                  header: 'Actions',
                  cell: (rule) =>
                    can('products:write') && (
                    <div className="actions">
                      <button type="button" className="secondary small" disabled={update.isPending} onClick={() => update.run({ id: rule.id, enabled: !rule.enabled })}>
                        {rule.enabled ? 'Turn off' : 'Turn on'}
                      </button>
                      <ConfirmButton label="Delete" ariaLabel={`Delete rule ${rule.id}`} title="Delete this rule?" confirmLabel="Delete rule" onConfirm={() => remove.runAsync(rule.id)}>
                        <p>It stops firing. Entitlements it granted stay.</p>
                      </ConfirmButton>
                    </div>
                  ),
                },
              ]}
            />
          )}
        </ListView>
      </Section>
    </>
  );
}
