import { Client } from 'pg';
import type { StatementDone, StatementObserver } from '../observability/statement-observer';

type Callback = (error: unknown, result?: unknown) => void;

/** The statement's text, whichever of pg's call forms (text, or a config object) carries it. */
function textOf(first: unknown): string {
  if (typeof first === 'string') return first;
  const text = (first as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}

/** Runs one client.query call, telling `done` when it ends: callback form, promise form or a submittable (pg-cursor). */
function observeCall(call: (args: unknown[]) => unknown, args: unknown[], done: StatementDone): unknown {
  const last = args[args.length - 1];
  if (typeof last === 'function') {
    const callback = last as Callback;
    return call([...args.slice(0, -1), (error: unknown, result?: unknown) => (done(error), callback(error, result))]);
  }
  if (typeof (args[0] as { submit?: unknown } | null)?.submit === 'function') {
    const submittable = args[0] as { once(event: string, listener: (error?: unknown) => void): void };
    submittable.once('end', () => done());
    submittable.once('error', (error) => done(error));
    return call(args);
  }
  const result = call(args) as Promise<unknown>;
  result.then(
    () => done(),
    (error: unknown) => done(error),
  );
  return result;
}

/**
 * A pg Client whose every statement is seen by `observer` (failures counted, spans when tracing
 * is on), given to a pool as its `Client`: the pools of TypeORM and of the check alike, on
 * PostgreSQL and the embedded database. Pools get pg's own Client when nothing observes.
 */
export function observedClient(observer: StatementObserver): typeof Client {
  return class ObservedClient extends Client {
    override query(...args: unknown[]): never {
      const call = (forwarded: unknown[]) => (super.query as (...parameters: unknown[]) => unknown).apply(this, forwarded);
      return observeCall(call, args, observer.begin(textOf(args[0]))) as never;
    }
  };
}
