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
/**
 * How long a merchant counts as present after its last request ended. Its clients send the next
 * request a moment after the last answer: without this, a busy merchant would find itself alone
 * in every such gap and fill the instance again before the other's next request arrived.
 */
export const PRESENCE_MILLISECONDS = 1_000;

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
  /** Set when a finished request handed its turn to this one: from then on it holds a slot. */
  admitted: boolean;
}

interface MerchantLoad {
  running: number;
  waiting: Waiter[];
  /** When its last request ended (running and waiting 0); the entry goes PRESENCE_MILLISECONDS later. */
  idleSince: number;
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
 * Fair share (DESIGN §15): how many requests of one merchant the process handles at once while
 * another merchant is present. One merchant's burst then holds at most `inFlight` requests' worth
 * of the event loop, the pools and the database; its other requests wait here, in arrival order,
 * costing a queue entry and no CPU, while every other merchant's requests go straight through. A
 * full queue, or a wait past the timeout, is 429 RATE_LIMITED with Retry-After (the client backs
 * off instead of piling on). A merchant alone in the process (nobody else with a request in the
 * last PRESENCE_MILLISECONDS) is not limited: there is nobody to be fair to, and two at a time
 * halved a lone merchant's checks in the bench.
 *
 * The slot is taken once the credential is known (the request gate, both adapters and the direct
 * routes) and given back on the response's `close`, which Node emits on every way out: an answer
 * (a streamed one when its last byte is written), an error, a client that went away. Admission
 * under the limit is a map lookup, a counter and that listener: no promise, no timer. Per
 * process, like the pool it protects.
 */
export class MerchantAdmission {
  private readonly merchants = new Map<string, MerchantLoad>();
  /** Forgets merchants that have been idle for a while; unref'd, so it never keeps the process up. */
  private readonly forgetting = setInterval(() => this.forgetIdle(Date.now()), PRESENCE_MILLISECONDS).unref();

  constructor(private readonly limits: MerchantAdmissionLimits) {}

  onModuleDestroy(): void {
    clearInterval(this.forgetting);
  }

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
      load = { running: 0, waiting: [], idleSince: 0 };
      this.merchants.set(merchantId, load);
    }
    if (load.running < this.limit()) {
      load.running += 1;
      response.on('close', () => this.release(merchantId));
      return null;
    }
    if (load.waiting.length >= this.limits.queue) throw busy(`${this.limits.inFlight} in flight and ${this.limits.queue} waiting`);
    return this.enqueue(merchantId, load, response);
  }

  /** Merchants present: with requests in flight or waiting, or idle for less than PRESENCE_MILLISECONDS (tests and diagnostics). */
  present(): number {
    return this.merchants.size;
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

  /** The share of each merchant: `inFlight` while another merchant is present, no limit alone. */
  private limit(): number {
    return this.merchants.size > 1 ? this.limits.inFlight : Number.POSITIVE_INFINITY;
  }

  private release(merchantId: string): void {
    const load = this.merchants.get(merchantId);
    if (load === undefined) return;
    // Over its share (it was alone when it took them), the slot is not passed on: it shrinks to the share.
    if (load.waiting.length > 0 && load.running <= this.limit()) {
      // The slot passes straight to the next waiter: `running` stays the same.
      this.startNext(load);
      return;
    }
    load.running -= 1;
    if (load.running === 0 && load.waiting.length === 0) load.idleSince = Date.now();
  }

  private startNext(load: MerchantLoad): void {
    const next = load.waiting.shift();
    if (next === undefined) return;
    clearTimeout(next.timer);
    next.admitted = true;
    next.start();
  }

  /** Drops merchants idle for PRESENCE_MILLISECONDS; one left alone gets its waiting requests started. */
  private forgetIdle(now: number): void {
    for (const [merchantId, load] of this.merchants) {
      if (load.running === 0 && load.waiting.length === 0 && now - load.idleSince >= PRESENCE_MILLISECONDS) this.merchants.delete(merchantId);
    }
    if (this.merchants.size !== 1) return;
    for (const load of this.merchants.values()) {
      while (load.waiting.length > 0) {
        load.running += 1;
        this.startNext(load);
      }
    }
  }
}

function removeWaiter(waiting: Waiter[], waiter: Waiter): void {
  const index = waiting.indexOf(waiter);
  if (index !== -1) waiting.splice(index, 1);
}
