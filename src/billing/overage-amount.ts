/** Bytes in one GiB (binary, as the plan table), for integer arithmetic. */
const GIBIBYTE = 2n ** 30n;

function toBigInt(value: bigint | number, name: string): bigint {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new RangeError(`${name} must be a safe integer, got ${value}`);
  const integer = BigInt(value);
  if (integer < 0n) throw new RangeError(`${name} must not be negative, got ${value}`);
  return integer;
}

/**
 * What overage costs (DESIGN §17): overage bytes × price per GiB ÷ 2^30, rounded half up to a
 * whole minor unit. In BigInt, never floats: 2^53 − 1 bytes at any price stays exact.
 */
export function overageAmount(overageBytes: bigint | number, pricePerGib: bigint | number): bigint {
  const product = toBigInt(overageBytes, 'overageBytes') * toBigInt(pricePerGib, 'pricePerGib');
  // Half up: add half a GiB before the integer division (which truncates toward zero).
  return (product + GIBIBYTE / 2n) / GIBIBYTE;
}

/** Overage in whole GiB, rounded up: the quantity reported to Stripe's meter (a started GiB counts). */
export function overageGibibytesRoundedUp(overageBytes: bigint | number): bigint {
  return (toBigInt(overageBytes, 'overageBytes') + GIBIBYTE - 1n) / GIBIBYTE;
}

/** A BigInt amount as a JSON number; amounts past 2^53 − 1 minor units can't occur from bigint columns of bytes at sane prices, but are refused rather than rounded. */
export function amountAsNumber(amount: bigint): number {
  if (amount > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`amount ${amount} is past the largest exact JSON number`);
  return Number(amount);
}
