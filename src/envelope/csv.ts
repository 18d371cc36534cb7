import { Readable } from 'node:stream';
import { StreamableFile } from '@nestjs/common';
import type { PageResult } from './page-result';

/** What a CSV answer is sent as. */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** Rows an export reads per page: larger than a client's page (fewer statements), small enough to stream. */
export const CSV_EXPORT_PAGE_SIZE = 500;

/** Whether the request asks for CSV (`Accept: text/csv`, among others or alone): the one rule of every CSV answer. */
export function wantsCsv(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((type) => type.split(';')[0].trim().toLowerCase() === 'text/csv');
}

/**
 * One cell, RFC 4180: quoted when it holds a comma, quote or line break. A text starting with
 * =, +, - or @ is prefixed with ' so a spreadsheet shows it rather than running it as a formula
 * (CSV injection). Absent values are empty; objects (metadata) are their JSON.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (typeof value !== 'number' && /^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line with its CRLF end. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The columns of an export: an item's fields, in order (the header row names them). */
export type CsvColumns<Item> = ReadonlyArray<keyof Item & string>;

/**
 * Every page of a list as one streamed CSV file (header row first), each page read when the
 * client has taken the last: memory stays one page whatever the list's length. `pageAt` is the
 * list's own read (its filters, its scope, its tenant) at a cursor. The first page is read before
 * answering, so a refused filter is still a JSON error with its status; a failure later ends the
 * download early (the file is then visibly cut short, without its last line end).
 * Exporting another list is one call: its columns and its read.
 */
export async function csvExport<Item>(fileName: string, columns: CsvColumns<Item>, pageAt: (cursor: string | undefined) => Promise<PageResult<Item>>): Promise<StreamableFile> {
  const first = await pageAt(undefined);
  async function* lines(): AsyncGenerator<string> {
    yield csvLine(columns);
    let page = first;
    for (;;) {
      for (const item of page.items) yield csvLine(columns.map((column) => item[column]));
      const cursor = page.pagination.next_cursor;
      if (!cursor) return;
      page = await pageAt(cursor);
    }
  }
  return new StreamableFile(Readable.from(lines()), { type: CSV_CONTENT_TYPE, disposition: `attachment; filename="${fileName}"` });
}
