/**
 * Stryker's `break` threshold holds the score over all mutated files; this holds each file to it
 * (`npm run test:mutation` runs it after Stryker): every module listed in mutation-targets.js must
 * score at least MINIMUM_SCORE on its own. Reads the JSON report (mutation-testing-report-schema).
 */
const { readFileSync } = require('node:fs');
const path = require('node:path');

const MINIMUM_SCORE = 80;
const REPORT = path.resolve(__dirname, '../../reports/mutation/mutation.json');

const report = JSON.parse(readFileSync(REPORT, 'utf8'));
let failed = false;
for (const [file, { mutants }] of Object.entries(report.files)) {
  const count = (status) => mutants.filter((mutant) => mutant.status === status).length;
  const detected = count('Killed') + count('Timeout');
  const valid = detected + count('Survived') + count('NoCoverage');
  const score = valid === 0 ? 100 : (100 * detected) / valid;
  const verdict = score >= MINIMUM_SCORE ? 'ok' : `below ${MINIMUM_SCORE} %`;
  if (score < MINIMUM_SCORE) failed = true;
  console.log(`${file}: ${score.toFixed(2)} % (${count('Killed')} killed, ${count('Timeout')} timed out, ${count('Survived')} survived, ${count('NoCoverage')} not covered) ${verdict}`);
}
process.exit(failed ? 1 : 0);
