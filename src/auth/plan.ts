/** The merchant plans (DESIGN §3), apart from the entity so the CLI can check a --plan without loading TypeORM. */
export const PLANS = ['free', 'growth', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
