const UNIT_MILLISECONDS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** Parses durations such as `500ms`, `30s`, `5m`, `2h`, `1d` into milliseconds; null when malformed. */
export function parseDuration(value: string): number | null {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(value.trim());
  if (!match) return null;
  return Number(match[1]) * UNIT_MILLISECONDS[match[2]];
}
