import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { idempotent, unwrap, unwrapPage, type Schemas } from '../../api/client';
import { describeFailure } from '../../lib/errors';
import { formatBytes, formatCount } from '../../lib/format';
import { useListState, usePage } from '../../lib/list';
import { useApi, useMode, useModePath } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { useWrite } from '../../lib/write';
import { Badge } from '../../ui/badge';
import { SubmitButton } from '../../ui/fields';
import { PageHeader, Section } from '../../ui/page';
import { ListView } from '../../ui/list-view';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';

type Import = Schemas['ImportResponseDto'];

const EXAMPLE = 'store_customer_id,store_product_id,expires_at,usage_limit,store_order_id,metadata\ncust_1001,sku_ebook_42,,,legacy_77,"{""migrated_from"": ""legacy""}"';
/** The API's bound (20 MiB); a larger file is refused before it is sent. */
const MAX_BYTES = 20 * 1024 * 1024;

const unfinished = (entry: Import) => entry.status === 'queued' || entry.status === 'running';

/** Moves grants in from another system: a CSV file, granted in the background (source import). */
export function ImportsPage() {
  const can = useCan();
  const api = useApi();
  const path = useModePath();
  const list = useListState([] as const);
  const input = useRef<HTMLInputElement>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [opened, setOpened] = useState<string | null>(null);
  const page = usePage('imports', list, async (paging) => unwrapPage(await api.GET('/v1/entitlement-imports', { params: { query: paging } })));
  const start = useWrite({
    mutationFn: async (file: File, key: string) => {
      const csv = await file.text();
      return unwrap(
        await api.POST('/v1/entitlement-imports', {
          // The API reads CSV as it is: the browser sends the file's text.
          body: csv as never,
          bodySerializer: (body: unknown) => body as string,
          headers: { 'Content-Type': 'text/csv', ...idempotent(key).headers },
        }),
      );
    },
    signature: (file) => `${file.name}:${file.size}:${file.lastModified}`,
    invalidates: [['imports']],
    onSuccess: (started) => {
      setOpened(started.id);
      if (input.current) input.current.value = '';
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const file = input.current?.files?.[0];
    if (!file) return setFileError('Choose a CSV file.');
    if (file.size > MAX_BYTES) return setFileError(`The file is ${formatBytes(file.size)}: at most 20 MB can be imported at once. Split it.`);
    setFileError(null);
    start.run(file);
  };
  return (
    <>
      <PageHeader title="Import grants" description="Move customers’ existing access in from another system. Rows are granted in the background; a customer who already holds the product is skipped." back={{ to: path('entitlements'), label: 'Entitlements' }} />
      {can('entitlements:write') && <Section title="New import">
        <form className="stack form" onSubmit={submit} aria-label="Import grants from a CSV file" noValidate>
          <div className={fileError ? 'field has-error' : 'field'}>
            <label htmlFor="import-file">CSV file</label>
            <input ref={input} id="import-file" type="file" accept=".csv,text/csv" aria-invalid={fileError ? true : undefined} aria-describedby="import-file-hint import-file-error" />
            <p id="import-file-hint" className="hint">
              A header row, then one grant a row. Columns: store_customer_id (or customer_id), store_product_id (or product_id), and optionally expires_at, usage_limit, store_order_id, metadata (JSON). Up to 100,000 rows.
            </p>
            {fileError && (
              <p id="import-file-error" className="field-error">
                {fileError}
              </p>
            )}
          </div>
          <details className="more">
            <summary>An example file</summary>
            <pre className="example">{EXAMPLE}</pre>
          </details>
          {start.error ? (
            <p role="alert" className="error">
              {describeFailure(start.error)}
            </p>
          ) : null}
          <div className="actions">
            <SubmitButton pending={start.isPending} pendingLabel="Sending…">
              Start the import
            </SubmitButton>
          </div>
        </form>
      </Section>}
      {opened && <ImportProgress id={opened} />}
      <Section title="Imports">
        <ListView page={page} list={list} noun="imports" empty={<Empty title="No imports yet." />}>
          {(rows) => (
            <Table<Import>
              caption="Imports"
              rows={rows}
              rowKey={(entry) => entry.id}
              columns={[
                {
                  header: 'Started',
                  rowHeader: true,
                  cell: (entry) => (
                    <button type="button" className="link" onClick={() => setOpened(entry.id)} aria-label={`Show import ${entry.id}`}>
                      <Time value={entry.created_at} />
                    </button>
                  ),
                },
                { header: 'Status', cell: (entry) => <Badge status={entry.status} /> },
                { header: 'Rows', cell: (entry) => `${formatCount(entry.processed_rows)} of ${formatCount(entry.total_rows)}` },
                { header: 'Granted', cell: (entry) => formatCount(entry.granted) },
                { header: 'Skipped', cell: (entry) => formatCount(entry.skipped) },
                { header: 'Failed', cell: (entry) => formatCount(entry.failed) },
              ]}
            />
          )}
        </ListView>
      </Section>
    </>
  );
}

/** One import as it runs (asked again every 2 s until it is done), with its failed rows. */
function ImportProgress({ id }: { id: string }) {
  const api = useApi();
  const mode = useMode();
  const progress = useQuery({
    queryKey: [mode, 'imports', 'one', id],
    queryFn: async () => unwrap(await api.GET('/v1/entitlement-imports/{import_id}', { params: { path: { import_id: id } } })),
    refetchInterval: (query) => (query.state.data && !unfinished(query.state.data) ? false : 2000),
  });
  const data = progress.data;
  return (
    <Section title="Import">
      {progress.isPending && <Loading what="the import" />}
      <ErrorMessage error={progress.error} />
      {data && (
        <>
          <p role="status">
            <Badge status={data.status} /> {formatCount(data.processed_rows)} of {formatCount(data.total_rows)} rows: {formatCount(data.granted)} granted, {formatCount(data.skipped)} skipped, {formatCount(data.failed)} failed.
          </p>
          <progress max={Math.max(data.total_rows, 1)} value={data.processed_rows} aria-label="Rows processed" />
          {data.errors.length > 0 && (
            <Table
              caption="Rows that failed"
              rows={data.errors}
              rowKey={(error) => String(error.row)}
              columns={[
                { header: 'Row', rowHeader: true, cell: (error) => error.row },
                { header: 'Code', cell: (error) => <code>{error.code}</code> },
                { header: 'Why', cell: (error) => error.message },
              ]}
            />
          )}
        </>
      )}
    </Section>
  );
}
