import type { MerchantTerms } from '../auth/merchants.service';
import type { PricedPlan } from '../config/config.schema';
import { PLAN_LIMITS, PlanLimits } from './plans';

/** What a merchant is held to and billed at this moment: its plan's terms with its own over them (DESIGN §17). */
export interface BillingTerms {
  plan: MerchantTerms['plan'];
  limits: PlanLimits;
  /** Minor units per GiB of overage; null on the free plan (a hard cap has no overage). */
  overagePricePerGib: number | null;
  stripeCustomerId: string | null;
}

/** The merchant's own limits and price where set, the plan's (and OVERAGE_PRICES) elsewhere. */
export function billingTermsOf(terms: MerchantTerms, prices: Readonly<Record<PricedPlan, number>>): BillingTerms {
  const plan = PLAN_LIMITS[terms.plan];
  return {
    plan: terms.plan,
    limits: {
      maxFileSizeBytes: terms.maxFileSizeBytes ?? plan.maxFileSizeBytes,
      storageBytes: terms.storageBytes ?? plan.storageBytes,
      bandwidthBytes: terms.bandwidthBytes ?? plan.bandwidthBytes,
      bandwidthHardCap: plan.bandwidthHardCap,
    },
    overagePricePerGib: terms.plan === 'free' ? null : (terms.overagePricePerGib ?? prices[terms.plan]),
    stripeCustomerId: terms.stripeCustomerId,
  };
}

/** Bytes past the included bandwidth; none on a hard cap. One rule for GET /v1/usage and the month's statement. */
export function overageBytesOf(bandwidthBytes: number, includedBytes: number, hardCap: boolean): number {
  return hardCap ? 0 : Math.max(0, bandwidthBytes - includedBytes);
}
