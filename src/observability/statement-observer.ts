import { Injectable } from '@nestjs/common';
import type { Span } from '@opentelemetry/api';
import { ATTR_DB_OPERATION_NAME, ATTR_DB_QUERY_TEXT, ATTR_DB_SYSTEM_NAME, DB_SYSTEM_NAME_VALUE_POSTGRESQL } from './span-attributes';
import { Metrics } from './metrics';
import { failed, Tracing } from './tracing';

/** Called when a statement has finished: with its error when it failed. */
export type StatementDone = (error?: unknown) => void;

/** SQLSTATE classes worth telling apart on a dashboard; anything else is `other` (a bug, usually). */
const KIND_BY_SQLSTATE_CLASS: Record<string, string> = {
  '08': 'connection',
  '23': 'constraint',
  '25': 'transaction_state',
  '40': 'conflict',
  '22': 'data',
  '53': 'resources',
  '57': 'operator_intervention',
};

/** The `kind` label of a failed statement: its SQLSTATE class named, `timeout` for 57014, `connection` for a lost socket. */
export function databaseErrorKind(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return 'connection';
  if (code === '57014') return 'timeout';
  if (!/^[0-9A-Z]{5}$/.test(code)) return 'connection';
  return KIND_BY_SQLSTATE_CLASS[code.slice(0, 2)] ?? 'other';
}

/** The statement's first keyword (SELECT, INSERT, BEGIN…): the span's name. */
function operationOf(text: string): string {
  const match = /^\s*([A-Za-z]+)/.exec(text);
  return match ? match[1].toUpperCase() : 'QUERY';
}

/**
 * What sees every database statement (src/database/observed-client.ts wraps the pools' clients
 * with it): failed statements are counted by kind (db_errors_total) and, when tracing is on, a
 * statement run for a request is a child span of it, with its text (parameters are never in it).
 */
@Injectable()
export class StatementObserver {
  constructor(
    private readonly metrics: Metrics,
    private readonly tracing: Tracing,
  ) {}

  /** Whether statements need watching at all: when not, the pools get pg's own client, at no cost. */
  get active(): boolean {
    return this.metrics.enabled || this.tracing.enabled;
  }

  /** A statement starts; the returned function is called once when it ends. */
  begin(text: string): StatementDone {
    const span = this.tracing.enabled ? this.statementSpan(text) : null;
    if (span === null) return this.countFailure;
    return (error) => {
      this.countFailure(error);
      if (error !== undefined && error !== null) failed(span, error);
      span.end();
    };
  }

  /** Shared by every untraced statement: nothing is made per statement. */
  private readonly countFailure: StatementDone = (error) => {
    if (error !== undefined && error !== null) this.metrics.databaseError(databaseErrorKind(error));
  };

  /** A child span of the current request's, or null outside one (background work). */
  private statementSpan(text: string): Span | null {
    const operation = operationOf(text);
    return this.tracing.startChildSpan(operation, {
      [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL,
      [ATTR_DB_OPERATION_NAME]: operation,
      [ATTR_DB_QUERY_TEXT]: text,
    });
  }
}
