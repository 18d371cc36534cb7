/**
 * The test-clocks module's SQL for other modules' single statements: "now" of a row whose
 * customer may be bound to a test clock (DESIGN §14), the clock's frozen_time when `clockColumn`
 * names one, else the bound real time `nowParameter`. A scalar subquery on the clocks' primary
 * key, so the access check stays one statement while the test_clocks table's SQL is written only
 * here (DESIGN §1, one owner per table).
 */
export function customerNowSql(clockColumn: string, nowParameter: string): string {
  return `COALESCE((SELECT tc.frozen_time FROM test_clocks tc WHERE tc.id = ${clockColumn}), ${nowParameter})`;
}
