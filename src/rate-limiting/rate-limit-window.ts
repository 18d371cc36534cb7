/** Every rate limit counts in one-minute windows (DESIGN §4): X-RateLimit-Reset and Retry-After never exceed it. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;
