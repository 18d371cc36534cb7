import type { ReactNode } from 'react';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** The row's header cell (its name), read first by screen readers. */
  rowHeader?: boolean;
  className?: string;
}

/**
 * A table of records. On a phone each row becomes a card (styles.css), each cell labelled by its
 * column's header, so nothing scrolls sideways.
 */
export function Table<T>({ caption, columns, rows, rowKey }: { caption: string; columns: Column<T>[]; rows: T[]; rowKey: (row: T) => string }) {
  return (
    <table className="records">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col" className={column.className}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column) =>
              column.rowHeader ? (
                <th key={column.header} scope="row" data-label={column.header} className={column.className}>
                  {column.cell(row)}
                </th>
              ) : (
                <td key={column.header} data-label={column.header} className={column.className}>
                  {column.cell(row)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
