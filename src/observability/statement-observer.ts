import { Injectable } from '@nestjs/common';
import { Metrics } from './metrics';

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

/**
 * What sees every database statement (src/database/observed-client.ts wraps the pools' clients
 * with it): failed statements are counted by kind (db_errors_total).
 */
@Injectable()
export class StatementObserver {
  constructor(private readonly metrics: Metrics) {}

  /** Whether statements need watching at all: when not, the pools get pg's own client, at no cost. */
  get active(): boolean {
    return this.metrics.enabled;
  }

  /** A statement starts; the returned function is called once when it ends. */
  begin(text: string): StatementDone {
    void text;
    return (error) => {
      if (error !== undefined && error !== null) this.metrics.databaseError(databaseErrorKind(error));
    };
  }
}
