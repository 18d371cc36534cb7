import { useState } from 'react';
import { downloadCsv } from '../api/client';
import { describeFailure } from '../lib/errors';
import { useMode } from '../lib/mode';

/** "Export CSV": every page of the list as filtered now, not only the rows shown (the server streams them all). */
export function ExportCsvButton({ path, query, fileName }: { path: string; query: Record<string, string | undefined>; fileName: string }) {
  const mode = useMode();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  async function exportList() {
    setBusy(true);
    setFailure(null);
    try {
      await downloadCsv(mode, path, query, fileName);
    } catch (error) {
      setFailure(describeFailure(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <button type="button" className="secondary" disabled={busy} onClick={() => void exportList()}>
        {busy ? 'Exporting…' : 'Export CSV'}
      </button>
      {failure && (
        <span role="alert" className="field-error">
          {failure}
        </span>
      )}
    </>
  );
}
