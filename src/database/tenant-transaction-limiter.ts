import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

export interface TenantTransactionLimits {
  /** Transactions one tenant may run at once. */
  concurrency: number;
  /** Transactions of one tenant allowed to wait for a turn; one more is refused at once. */
  queue: number;
  /** Longest wait for a turn. */
  timeoutMilliseconds: number;
}

export const TENANT_RETRY_AFTER_SECONDS = 1;

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
}

interface TenantState {
  running: number;
  waiting: Waiter[];
}

function tooBusy(reason: string): ApiError {
  return new ApiError(
    ErrorCode.SERVICE_UNAVAILABLE,
    `Too many writes of this merchant are in progress (${reason}); retry after ${TENANT_RETRY_AFTER_SECONDS} second`,
    undefined,
    { 'Retry-After': String(TENANT_RETRY_AFTER_SECONDS) },
  );
}

/**
 * Bounds how many transactions one tenant runs at once, so one merchant's burst can hold at most
 * that many of the pool's connections and the rest stay free for everyone else. Work over the
 * share waits here, in memory and in arrival order, without holding a connection; a full queue
 * or a wait past the timeout is a 503 SERVICE_UNAVAILABLE with Retry-After (the client backs off
 * instead of every request piling onto the database). Per process: each instance bounds its own
 * pool.
 */
export class TenantTransactionLimiter {
  private readonly tenants = new Map<string, TenantState>();

  constructor(private readonly limits: TenantTransactionLimits) {}

  /** Runs `work` within `tenant`'s share; `null` (system work such as sweeps) is not limited. */
  async run<T>(tenant: string | null, work: () => Promise<T>): Promise<T> {
    if (tenant === null) return work();
    await this.acquire(tenant);
    try {
      return await work();
    } finally {
      this.release(tenant);
    }
  }

  /** Transactions running and waiting for `tenant` (tests and diagnostics). */
  load(tenant: string): { running: number; waiting: number } {
    const state = this.tenants.get(tenant);
    return { running: state?.running ?? 0, waiting: state?.waiting.length ?? 0 };
  }

  private acquire(tenant: string): Promise<void> {
    let state = this.tenants.get(tenant);
    if (!state) {
      state = { running: 0, waiting: [] };
      this.tenants.set(tenant, state);
    }
    if (state.running < this.limits.concurrency) {
      state.running += 1;
      return Promise.resolve();
    }
    if (state.waiting.length >= this.limits.queue) return Promise.reject(tooBusy(`${this.limits.queue} already waiting`));
    const waiting = state.waiting;
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: resolve,
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(tooBusy(`waited ${this.limits.timeoutMilliseconds} ms for a turn`));
        }, this.limits.timeoutMilliseconds),
      };
      waiting.push(waiter);
    });
  }

  private release(tenant: string): void {
    const state = this.tenants.get(tenant);
    if (!state) return;
    const next = state.waiting.shift();
    if (next) {
      // The turn passes straight to the next waiter: `running` stays the same.
      clearTimeout(next.timer);
      next.start();
      return;
    }
    state.running -= 1;
    if (state.running === 0) this.tenants.delete(tenant);
  }
}
