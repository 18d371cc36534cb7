import { amountAsNumber, overageAmount, overageGibibytesRoundedUp } from '../../src/billing/overage-amount';

const GIB = 2 ** 30;

describe('overage amount (DESIGN §17: bytes × price ÷ 2^30, half up, in integers)', () => {
  it.each([
    // [overage bytes, price per GiB, amount in minor units]
    [0, 10, 0n],
    [1, 10, 0n], // 1 byte over: 10 / 2^30 of a cent rounds down to nothing
    [1, 2 ** 29, 1n], // exactly half a minor unit: half up
    [1, 2 ** 29 - 1, 0n], // just under half
    [GIB, 10, 10n], // exactly one GiB over
    [GIB - 1, 10, 10n], // 9.99999999 rounds to 10
    [GIB / 2, 1, 1n], // half a GiB at 1: exactly 0.5 rounds up
    [GIB / 2 - 1, 1, 0n],
    [Math.floor(GIB / 20), 10, 0n], // a twentieth of a GiB, rounded down to whole bytes, at 10: 0.4999999991 rounds down
    [Math.ceil(GIB / 20), 10, 1n], // rounded up to whole bytes: 0.5000000075 rounds up
    [3 * GIB + GIB / 4, 8, 26n], // 3.25 GiB at 8
    [10 * GIB, 5, 50n],
    [Number.MAX_SAFE_INTEGER, 10, 83886080n], // 2^53 − 1 bytes: 83 886 079.99999999 → exact, no float drift
    [Number.MAX_SAFE_INTEGER, 1, 8388608n],
    [Number.MAX_SAFE_INTEGER, 0, 0n],
  ])('%d bytes at %d per GiB cost %d', (bytes, price, expected) => {
    expect(overageAmount(bytes, price)).toBe(expected);
  });

  it('takes BigInt inputs beyond 2^53 and stays exact', () => {
    expect(overageAmount(2n ** 62n, 3n)).toBe(3n * 2n ** 32n);
  });

  it('refuses negative or fractional inputs instead of guessing', () => {
    expect(() => overageAmount(-1, 10)).toThrow(RangeError);
    expect(() => overageAmount(1.5, 10)).toThrow(RangeError);
    expect(() => overageAmount(1, -10)).toThrow(RangeError);
  });

  it.each([
    [0, 0n],
    [1, 1n],
    [GIB, 1n],
    [GIB + 1, 2n],
    [Number.MAX_SAFE_INTEGER, 8388608n],
  ])('%d bytes report %d GiB to the meter (rounded up)', (bytes, expected) => {
    expect(overageGibibytesRoundedUp(bytes)).toBe(expected);
  });

  it('returns amounts as JSON numbers only while exact', () => {
    expect(amountAsNumber(83886080n)).toBe(83886080);
    expect(() => amountAsNumber(2n ** 53n)).toThrow(RangeError);
  });
});
