import type { ServerResponse } from 'node:http';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

export interface MerchantAdmissionLimits {
  /** Requests of one merchant handled at once (MERCHANT_REQUESTS_IN_FLIGHT). */
  inFlight: number;
  /** Requests of one merchant allowed to wait for a turn; one more is refused at once (MERCHANT_REQUEST_QUEUE). */
  queue: number;
  /** Longest wait for a turn (MERCHANT_REQUEST_QUEUE_TIMEOUT). */
  queueTimeoutMilliseconds: number;
}

export const ADMISSION_RETRY_AFTER_SECONDS = 1;

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
  /** Set when a finished request handed its turn to this one: from then on it holds a slot. */
  admitted: boolean;
}

interface MerchantLoad {
  running: number;
  waiting: Waiter[];
}

function busy(reason: string): ApiError {
  return new ApiError(
    ErrorCode.RATE_LIMITED,
    `Too many requests of this merchant are in progress (${reason}); retry after ${ADMISSION_RETRY_AFTER_SECONDS} second`,
    undefined,
    { 'Retry-After': String(ADMISSION_RETRY_AFTER_SECONDS) },
  );
}

/**
 * Fair share (DESIGN §15): how many requests of one merchant the process handles at once. One
 * merchant's burst then holds at most `inFlight` requests' worth of the event loop, the pools and
 * the database; its other requests wait here, in arrival order, costing a queue entry and no CPU,
 * while every other merchant's requests go straight through. A full queue, or a wait past the
 * timeout, is 429 RATE_LIMITED with Retry-After (the client backs off instead of piling on).
 *
 * The slot is taken once the credential is known (the request gate, both adapters and the direct
 * routes) and given back on the response's `close`, which Node emits on every way out: an answer
 * (a streamed one when its last byte is written), an error, a client that went away. Admission
 * under the limit is a map lookup, a counter and that listener: no promise, no timer. Per
 * process, like the pool it protects.
 */
export class MerchantAdmission {
  private readonly merchants = new Map<string, MerchantLoad>();

  constructor(private readonly limits: MerchantAdmissionLimits) {}

  /**
   * Takes a slot of `merchantId` for `response` until it closes. `null`: admitted now; a promise:
   * queued, resolved when admitted (rejected with RATE_LIMITED after the timeout). Throws
   * RATE_LIMITED when the merchant's queue is full.
   */
  admit(merchantId: string, response: ServerResponse): Promise<void> | null {
    // The client went away during authentication: its 'close' has fired, nothing would give a slot back.
    if (response.destroyed) return null;
    let load = this.merchants.get(merchantId);
    if (load === undefined) {
      load = { running: 0, waiting: [] };
      this.merchants.set(merchantId, load);
    }
    if (load.running < this.limits.inFlight) {
      load.running += 1;
      response.on('close', () => this.release(merchantId));
      return null;
    }
    if (load.waiting.length >= this.limits.queue) throw busy(`${this.limits.inFlight} in flight and ${this.limits.queue} waiting`);
    return this.enqueue(merchantId, load, response);
  }

  /** Requests of `merchantId` in flight and waiting (tests and diagnostics). */
  load(merchantId: string): { running: number; waiting: number } {
    const load = this.merchants.get(merchantId);
    return { running: load?.running ?? 0, waiting: load?.waiting.length ?? 0 };
  }

  private enqueue(merchantId: string, load: MerchantLoad, response: ServerResponse): Promise<void> {
    const waiting = load.waiting;
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: resolve,
        admitted: false,
        timer: setTimeout(() => {
          removeWaiter(waiting, waiter);
          reject(busy(`waited ${this.limits.queueTimeoutMilliseconds} ms for a turn`));
        }, this.limits.queueTimeoutMilliseconds),
      };
      waiting.push(waiter);
      response.on('close', () => {
        if (waiter.admitted) return this.release(merchantId);
        // Gone while waiting (or after the timeout refused it): it never held a slot.
        clearTimeout(waiter.timer);
        removeWaiter(waiting, waiter);
      });
    });
  }

  private release(merchantId: string): void {
    const load = this.merchants.get(merchantId);
    if (load === undefined) return;
    const next = load.waiting.shift();
    if (next !== undefined) {
      // The slot passes straight to the next waiter: `running` stays the same.
      clearTimeout(next.timer);
      next.admitted = true;
      next.start();
      return;
    }
    load.running -= 1;
    if (load.running === 0) this.merchants.delete(merchantId);
  }
}

function removeWaiter(waiting: Waiter[], waiter: Waiter): void {
  const index = waiting.indexOf(waiter);
  if (index !== -1) waiting.splice(index, 1);
}
