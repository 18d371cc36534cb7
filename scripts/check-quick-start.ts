import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { answerPattern, cleanEnvironment, freePort, StartedServer, tourSteps } from './doc-check-support';

/**
 * `npm run check:quick-start` (run by `.ci/run`): the README's quick start, done as a newcomer
 * would, must be true. It runs the README's commands block (`npm install && npm start`) on a fresh
 * DATA_DIR and a free port, compares what the first start prints with the README's sample output
 * line by line (ids, keys, the setup token, the data directory and the port are placeholders),
 * then runs the 60-second tour's shell block against that server and matches each command's answer
 * with the `# →` line under it (`…` matches anything). The test command the README names must be
 * the one `.ci/run` runs (it is not run here: CI runs it in its own steps).
 *
 * The blocks are found by the HTML comments `<!-- quick-start:commands -->`,
 * `<!-- quick-start:first-start-output -->` and `<!-- quick-start:tour -->` placed before them.
 */

const REPOSITORY_ROOT = path.resolve(__dirname, '..');
const README_PORT = 3000;
const START_TIMEOUT_MILLISECONDS = 300_000;
const STEP_MARKER = '@@quick-start-step@@';

function readmeBlock(readme: string, marker: string): string {
  const match = new RegExp(`<!-- quick-start:${marker} -->\\s*\\n(\`\`\`)[^\\n]*\\n([\\s\\S]*?)\\n\`\`\``).exec(readme);
  if (!match) throw new Error(`README.md has no code block after <!-- quick-start:${marker} -->`);
  return match[2];
}

/** The same placeholders on both sides: what varies from one first start to the next (the port: 3000). */
function normalizeStartOutput(text: string, port = README_PORT): string {
  return text
    .replaceAll(`localhost:${port}`, `localhost:${README_PORT}`)
    .replaceAll(`(port ${port})`, `(port ${README_PORT})`)
    .replace(/(?:\/[^\s/]+)*\/data\/(pg|objects)\b/g, '<DATA_DIR>/$1')
    .replace(/\bmer_[0-9a-z]{26}\b/g, 'mer_<id>')
    .replace(/\beh_(test|live)_[0-9A-Za-z]{40}\b/g, 'eh_$1_<key>')
    .replace(/#token=[0-9A-Za-z_-]+/g, '#token=<token>');
}

interface Command {
  text: string;
}

/** The commands of a block, one per `&&`-joined part of each line, comments dropped. */
function commandsOf(block: string): Command[] {
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .flatMap((line) => line.split('&&').map((text) => ({ text: text.trim() })));
}

/** The app's own output: from the sample's first line on (npm's banner and the build come before it). */
function appOutput(rawOutput: string, port: number, firstSampleLine: string): string[] | null {
  const lines = normalizeStartOutput(rawOutput, port).split('\n');
  const prefix = firstSampleLine.slice(0, 12);
  const start = lines.findIndex((line) => line.startsWith(prefix));
  return start === -1 ? null : lines.slice(start);
}

async function waitForFirstStart(server: StartedServer, port: number, sample: string[]): Promise<string[]> {
  const deadline = Date.now() + START_TIMEOUT_MILLISECONDS;
  const lastSampleLine = sample[sample.length - 1];
  for (;;) {
    const lines = appOutput(server.output, port, sample[0]);
    if (lines && lines.length >= sample.length && lines.some((line) => line === lastSampleLine)) return lines.slice(0, sample.length);
    if (server.exited) throw new Error(`npm start exited before printing its summary:\n${server.output}`);
    if (Date.now() > deadline) throw new Error(`npm start printed no complete summary within ${START_TIMEOUT_MILLISECONDS / 1000} s:\n${server.output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function compareLines(expected: string[], actual: string[]): string[] {
  const problems: string[] = [];
  for (let index = 0; index < Math.max(expected.length, actual.length); index += 1) {
    if (expected[index] !== actual[index]) {
      problems.push(`line ${index + 1}:\n  README: ${JSON.stringify(expected[index] ?? null)}\n  start:  ${JSON.stringify(actual[index] ?? null)}`);
    }
  }
  return problems;
}

function runTour(block: string, port: number, key: string, workDirectory: string): string[] {
  const steps = tourSteps(block);
  const script = steps
    .map((step) => [...step.script, `printf '\\n%s\\n' '${STEP_MARKER}'`].join('\n'))
    .join('\n')
    .replace(/^(export\s+)?KEY=eh_test_…/m, `$1KEY=${key}`)
    .replaceAll(`localhost:${README_PORT}`, `localhost:${port}`);
  if (!script.includes(key)) throw new Error('the tour sets no KEY=eh_test_… for the key the first start printed');
  const scriptFile = path.join(workDirectory, 'tour.sh');
  writeFileSync(scriptFile, `set -euo pipefail\n${script}\n`);
  const run = spawnSync('bash', [scriptFile], { cwd: workDirectory, encoding: 'utf8', env: cleanEnvironment({}), timeout: 120_000 });
  const outputs = run.stdout.split(`\n${STEP_MARKER}\n`);
  const problems: string[] = [];
  if (run.status !== 0) problems.push(`the tour's shell block failed (exit ${run.status}):\n${run.stderr}`);
  steps.forEach((step, index) => {
    if (step.expected === null) return;
    const actual = (outputs[index] ?? '').trim();
    const command = step.script.filter((line) => line.trim() !== '' && !line.startsWith('#')).join('\n');
    if (!answerPattern(step.expected).test(actual)) {
      problems.push(`tour step ${index + 1}:\n${command}\n  README: ${step.expected}\n  answer: ${actual}`);
    }
  });
  return problems;
}

async function main(): Promise<void> {
  const readme = readFileSync(path.join(REPOSITORY_ROOT, 'README.md'), 'utf8');
  const commands = commandsOf(readmeBlock(readme, 'commands'));
  const sample = normalizeStartOutput(readmeBlock(readme, 'first-start-output')).split('\n');
  const tour = readmeBlock(readme, 'tour');
  const ciRun = readFileSync(path.join(REPOSITORY_ROOT, '.ci', 'run'), 'utf8');

  const testCommand = commands.find(({ text }) => /^npm (test|t|run test)\b/.test(text));
  if (!testCommand) throw new Error('the quick start names no test command');
  // The command itself, alone on its line, perhaps after environment assignments (EH_SCALE_TESTS=apart npm test).
  if (!new RegExp(`^\\s*(?:[A-Z_][A-Z0-9_]*=\\S*\\s+)*${testCommand.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm').test(ciRun)) {
    throw new Error(`.ci/run does not run the README's test command \`${testCommand.text}\``);
  }

  const workDirectory = mkdtempSync(path.join(tmpdir(), 'eh-quick-start-'));
  const port = await freePort();
  // A fresh DATA_DIR and a free port stand in for ./data and 3000; HOST keeps it on loopback.
  const environment = cleanEnvironment({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: path.join(workDirectory, 'data') });
  let server: StartedServer | null = null;
  const problems: string[] = [];
  try {
    for (const { text } of commands) {
      if (text === testCommand.text) continue;
      process.stdout.write(`quick start: ${text}\n`);
      if (text === 'npm start') {
        server = new StartedServer(spawn('npm', ['start'], { cwd: REPOSITORY_ROOT, env: environment, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }));
        const actual = await waitForFirstStart(server, port, sample);
        problems.push(...compareLines(sample, actual).map((problem) => `first-start output, ${problem}`));
      } else {
        const run = spawnSync('bash', ['-c', text], { cwd: REPOSITORY_ROOT, env: { ...process.env, ...environment }, stdio: 'inherit' });
        if (run.status !== 0) throw new Error(`\`${text}\` failed (exit ${run.status})`);
      }
    }
    if (!server) throw new Error('the quick start runs no `npm start`');
    const key = /\beh_test_[0-9A-Za-z]{40}\b/.exec(server.output)?.[0];
    if (!key) throw new Error(`the first start printed no test key:\n${server.output}`);
    process.stdout.write('quick start: the 60-second tour\n');
    problems.push(...runTour(tour, port, key, workDirectory));
  } finally {
    await server?.stop();
    rmSync(workDirectory, { recursive: true, force: true });
  }
  if (problems.length > 0) {
    process.stderr.write(`The README's quick start is not what a fresh start does:\n\n${problems.join('\n\n')}\n`);
    process.exit(1);
  }
  process.stdout.write(`quick start: README true (commands run, ${sample.length} lines of first-start output and every tour answer match)\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
