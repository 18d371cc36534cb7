import { parseDuration } from '../../src/config/duration';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    [' 10s ', 10_000],
    ['0s', 0],
  ])('parses %p as %p ms', (input, expected) => {
    expect(parseDuration(input)).toBe(expected);
  });

  it.each(['', '5', 's', '1.5s', '-5s', '5 minutes', '5M', '5w', 'abc', '5s,5m'])('refuses %p', (input) => {
    expect(parseDuration(input)).toBeNull();
  });
});
