/**
 * Polls `check` until it returns true or `withinMilliseconds` pass; resolves with the time it took.
 * For promises with a deadline (revocation within 5 s), where a fixed sleep would be flaky or slow.
 */
export async function eventually(check: () => Promise<boolean>, withinMilliseconds: number, intervalMilliseconds = 100): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > withinMilliseconds) {
      throw new Error(`condition not met within ${withinMilliseconds} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMilliseconds));
  }
}
