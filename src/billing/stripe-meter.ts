import Stripe from 'stripe';

/** One statement's overage as Stripe Billing takes it: a meter event (DESIGN §17). */
export interface MeterEvent {
  eventName: string;
  stripeCustomerId: string;
  /** Whole GiB of overage, rounded up. */
  value: bigint;
  /** Stripe's idempotency for meter events: the statement id, so a retry never bills twice. */
  identifier: string;
  /** Seconds since the epoch: the last second of the statement's month. */
  timestamp: number;
}

/** Where meter events go; the official `stripe` library, pointed at Stripe or at STRIPE_API_URL. */
export class StripeMeter {
  private readonly stripe: Stripe;

  constructor(secretKey: string, apiUrl: string | null) {
    const address = apiUrl === null ? null : new URL(apiUrl);
    this.stripe = new Stripe(secretKey, {
      // Our own schedule retries (WEBHOOK_RETRY_SCHEDULE), with the outcome on the statement.
      maxNetworkRetries: 0,
      timeout: 30_000,
      telemetry: false,
      ...(address
        ? { host: address.hostname, port: address.port || (address.protocol === 'https:' ? 443 : 80), protocol: address.protocol === 'https:' ? 'https' : 'http' }
        : {}),
    });
  }

  async send(event: MeterEvent): Promise<void> {
    await this.stripe.billing.meterEvents.create({
      event_name: event.eventName,
      payload: { stripe_customer_id: event.stripeCustomerId, value: event.value.toString() },
      identifier: event.identifier,
      timestamp: event.timestamp,
    });
  }
}
