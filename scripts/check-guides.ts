import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DEMO_BUNDLE_CONTENTS, DEMO_GRANTS, DEMO_PRODUCTS } from '../src/demo/demo-catalogue';
import { answerPattern, cleanEnvironment, freePort, StartedServer, tourSteps } from './doc-check-support';

/**
 * `npm run check:guides` (run by `.ci/run` after the quick start, which built dist/): every guide's
 * examples, run as written. Each guide of docs/ and sdk/README.md gets a merchant of its own on one
 * shared server (dist/main.js, fresh embedded database) holding what a fresh start's demo merchant
 * holds (src/demo/demo-catalogue.ts, created through the API) and a test key with every scope,
 * which its `KEY=eh_test_…` line gets (`ADMIN_TOKEN=…`: the server's); then its shell blocks
 * run in order in one shell (so a block uses what an earlier one set), each command's answer
 * matched with the `# →` lines under it as check-quick-start does for the README, and an answer
 * that is an API error the guide doesn't show fails too. Its TypeScript blocks are compiled
 * (strict) against the SDK and run against the same server, in order, after its shell blocks (the
 * guides never interleave the two).
 *
 * One shared start rather than one per guide: a start costs 10 to 30 s of two busy cores, and a
 * fresh merchant is as empty as a fresh database for everything a guide does (every row is the
 * tenant's). The server runs with METRICS_PORT=0, and the check asks the address the start-up
 * summary names for /metrics, so that line is true as well.
 *
 * A block that can't run here (a server start with other settings, docker compose, a cloud) says
 * so on the line before it: `<!-- guide-check: not run: <reason> -->`; a TypeScript fragment that
 * is compiled but not run (it names placeholder ids): `<!-- guide-check: compiled only: <reason> -->`.
 * The check prints how many blocks ran and how many are marked, and why.
 */

const REPOSITORY_ROOT = path.resolve(__dirname, '..');
const DOCUMENTED_PORT = 3000;
const STEP_MARKER = '@@guide-check-step@@';
const START_TIMEOUT_MILLISECONDS = 180_000;
const SHELL_LANGUAGES = new Set(['bash', 'sh', 'shell']);
const TYPESCRIPT_LANGUAGES = new Set(['ts', 'typescript']);
const MARKER = /^<!-- guide-check: (not run|compiled only): (.+?) -->$/;

interface Block {
  guide: string;
  line: number;
  language: 'shell' | 'typescript';
  text: string;
  mark: { kind: 'not run' | 'compiled only'; reason: string } | null;
}

/** The guides: every markdown file of docs/ and the SDK's README (README.md has its own check). */
function guideFiles(): string[] {
  const docs = readdirSync(path.join(REPOSITORY_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return [...docs, 'sdk/README.md'];
}

/** The shell and TypeScript blocks of a guide, each with the marker on the line before it, if any. */
export function blocksOf(guide: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    // Fences may be indented (a block inside a list item): its lines lose that indent.
    const fence = /^( *)```(\S*)\s*$/.exec(lines[index]);
    if (!fence) continue;
    const indent = fence[1].length;
    const end = lines.findIndex((line, at) => at > index && line.trimStart().startsWith('```'));
    if (end === -1) throw new Error(`${guide}:${index + 1}: a code block is never closed`);
    const language = SHELL_LANGUAGES.has(fence[2]) ? 'shell' : TYPESCRIPT_LANGUAGES.has(fence[2]) ? 'typescript' : null;
    const marker = MARKER.exec((lines[index - 1] ?? '').trim());
    if (language) {
      const mark = marker ? { kind: marker[1] as 'not run' | 'compiled only', reason: marker[2] } : null;
      if (mark?.kind === 'compiled only' && language !== 'typescript') throw new Error(`${guide}:${index + 1}: only TypeScript is "compiled only"`);
      blocks.push({ guide, line: index + 1, language, text: lines.slice(index + 1, end).map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length))).join('\n'), mark });
    } else if (marker) {
      throw new Error(`${guide}:${index + 1}: a guide-check marker before a block that is neither shell nor TypeScript`);
    }
    index = end;
  }
  return blocks;
}

interface Tenant {
  merchantId: string;
  key: string;
}

/** One request on a connection of its own: a pooled one may have been closed by the server while a guide ran. */
function call(baseUrl: string, bearer: string, method: string, route: string, body?: unknown): Promise<{ id: string; key?: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${baseUrl}${route}`, { method, agent: false, headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        if ((response.statusCode ?? 500) >= 300) return reject(new Error(`${method} ${route}: ${response.statusCode} ${text}`));
        const parsed = JSON.parse(text) as { data?: { id: string; key?: string } } & { id: string; key?: string };
        resolve(parsed.data ?? parsed);
      });
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** A merchant of its own for a guide, with the demo merchant's catalogue in test mode and a test key with every scope. */
async function tenantFor(guide: string, baseUrl: string, adminToken: string): Promise<Tenant> {
  const merchant = await call(baseUrl, adminToken, 'POST', '/admin/v1/merchants', { name: `Guide ${guide}`, plan: 'free' });
  const created = await call(baseUrl, adminToken, 'POST', `/admin/v1/merchants/${merchant.id}/api-keys`, { mode: 'test', scopes: ['*'], name: 'guide check' });
  if (!created.key) throw new Error(`the admin API returned no key: ${JSON.stringify(created)}`);
  const key = created.key;
  const { starterBundle, ...included } = DEMO_PRODUCTS;
  const ids = new Map<string, string>();
  for (const [name, product] of Object.entries(included)) ids.set(name, (await call(baseUrl, key, 'POST', '/v1/products', product)).id);
  await call(baseUrl, key, 'POST', '/v1/products', { ...starterBundle, included_product_ids: DEMO_BUNDLE_CONTENTS.map((name) => ids.get(name)) });
  for (const grant of DEMO_GRANTS) await call(baseUrl, key, 'POST', '/v1/entitlements', grant);
  return { merchantId: merchant.id, key };
}

function forThisServer(text: string, port: number): string {
  return text.replaceAll(`localhost:${DOCUMENTED_PORT}`, `localhost:${port}`);
}

/** A guide's shell blocks, in order, in one shell; the problems found. */
function runShellBlocks(guide: string, blocks: Block[], port: number, tenant: Tenant, adminToken: string, workDirectory: string): string[] {
  const steps = blocks.flatMap((block) => tourSteps(forThisServer(block.text, port)).map((step) => ({ ...step, block })));
  const script = steps
    .map((step) => [...step.script, `printf '\\n%s\\n' '${STEP_MARKER}'`].join('\n'))
    .join('\n')
    .replace(/^(export\s+)?KEY=eh_test_…/gm, `$1KEY=${tenant.key}`)
    .replace(/^(export\s+)?ADMIN_TOKEN=…/gm, `$1ADMIN_TOKEN=${adminToken}`);
  const scriptFile = path.join(workDirectory, 'guide.sh');
  writeFileSync(scriptFile, `set -euo pipefail\n${script}\n`);
  // Nothing preset: a guide that uses $KEY sets it (`KEY=eh_test_…`), as a reader's shell needs (set -u fails it otherwise).
  const environment = cleanEnvironment({});
  const run = spawnSync('bash', [scriptFile], { cwd: workDirectory, encoding: 'utf8', env: environment, timeout: 180_000 });
  const outputs = run.stdout.split(`\n${STEP_MARKER}\n`);
  const problems: string[] = [];
  if (run.status !== 0) problems.push(`${guide}: its shell blocks failed (exit ${run.status}) after step ${outputs.length}:\n${run.stderr}`);
  steps.forEach((step, index) => {
    if (index >= outputs.length - 1 && run.status !== 0) return;
    const actual = (outputs[index] ?? '').trim();
    const command = step.script.filter((line) => line.trim() !== '' && !line.startsWith('#')).join('\n');
    const where = `${guide}:${step.block.line}`;
    if (step.expected === null) {
      if (/"error":\{"code"/.test(actual)) problems.push(`${where}: an error the guide doesn't show:\n${command}\n  answer: ${actual}`);
      return;
    }
    if (!answerPattern(step.expected).test(actual)) problems.push(`${where}:\n${command}\n  guide:  ${step.expected}\n  answer: ${actual}`);
  });
  return problems;
}

/**
 * A guide's TypeScript blocks, each a module: the ones not marked "compiled only" are run, in
 * order, against the server with EH_API_KEY and EH_MERCHANT_ID set. Fragments that use a client
 * or token they don't create get one declared (their prelude), as the text around them says.
 */
function runTypeScriptBlocks(guide: string, blocks: Block[], port: number, tenant: Tenant): string[] {
  // Inside node_modules: the SDK (@entitlement-delivery/sdk, built by `npm run build`) resolves as a user's project does.
  const directory = mkdtempSync(path.join(REPOSITORY_ROOT, 'node_modules', '.guide-check-'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built SDK's export names, read at run time
  const sdkExports = Object.keys(require('@entitlement-delivery/sdk') as object);
  try {
    const files = blocks.map((block, index) => {
      const declared = (name: string) => new RegExp(`\\b(?:const|let|var|function)\\s+${name}\\b|import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}`).test(block.text);
      // The SDK's exports a fragment uses without importing them (the text around it imports them).
      const used = sdkExports.filter((name) => new RegExp(`\\b${name}\\b`).test(block.text) && !declared(name));
      const prelude = [
        "import * as guideSdk from '@entitlement-delivery/sdk';",
        "import type * as guideExpress from 'express';",
        declared('client') ? '' : `const client = guideSdk.createEntitlementDeliveryClient({ baseUrl: 'http://localhost:${port}', apiKey: process.env.EH_API_KEY });`,
        ...['token', 'productId', 'merchantId'].filter((name) => !declared(name)).map((name) => `declare const ${name}: string;`),
        declared('app') ? '' : 'declare const app: guideExpress.Express;',
        declared('express') ? '' : 'declare const express: typeof guideExpress;',
        ...used.map((name) => `const ${name} = guideSdk.${name};`),
        'void guideSdk;',
      ].filter(Boolean);
      const file = path.join(directory, `block-${index + 1}.mts`);
      const text = forThisServer(block.text, port).replaceAll("'eh_test_…'", `'${tenant.key}'`).replaceAll("'mer_…'", `'${tenant.merchantId}'`);
      writeFileSync(file, `${prelude.join('\n')}\n${text}\nexport {};\n`);
      return { block, file };
    });
    writeFileSync(
      path.join(directory, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: ['node'], skipLibCheck: true, outDir: 'out', rootDir: '.' },
        include: ['*.mts'],
      }),
    );
    const compile = spawnSync(process.execPath, [path.join(REPOSITORY_ROOT, 'node_modules/typescript/bin/tsc'), '-p', directory], { encoding: 'utf8' });
    if (compile.status !== 0) return [`${guide}: its TypeScript blocks don't compile:\n${compile.stdout.replaceAll(`${directory}/`, '')}${compile.stderr}`];
    const problems: string[] = [];
    for (const { block, file } of files) {
      if (block.mark) continue;
      const compiled = path.join(directory, 'out', path.basename(file).replace(/\.mts$/, '.mjs'));
      const run = spawnSync(process.execPath, [compiled], {
        encoding: 'utf8',
        env: cleanEnvironment({ EH_API_KEY: tenant.key, EH_MERCHANT_ID: tenant.merchantId }),
        timeout: 60_000,
      });
      if (run.status !== 0) problems.push(`${guide}:${block.line}: the TypeScript block failed (exit ${run.status}):\n${run.stdout}${run.stderr}`);
    }
    return problems;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

async function waitForSummary(server: StartedServer): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MILLISECONDS;
  while (!/API listening on[\s\S]*\n\n/.test(server.output)) {
    if (server.exited) throw new Error(`the server exited before listening:\n${server.output}`);
    if (Date.now() > deadline) throw new Error(`the server printed no summary within ${START_TIMEOUT_MILLISECONDS / 1000} s:\n${server.output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** With METRICS_PORT=0 the summary must name the port the listener took, and it must serve /metrics. */
async function checkMetricsAddress(output: string): Promise<string[]> {
  const named = /^ {2}metrics: +(http:\/\/127\.0\.0\.1:(\d+)\/metrics)/m.exec(output);
  if (!named || named[2] === '0') return [`the start-up summary names no bound metrics address (METRICS_PORT=0):\n${output}`];
  const response = await fetch(named[1], { headers: { connection: 'close' } }).catch((error: unknown) => error as Error);
  if (response instanceof Error) return [`the summary's metrics address ${named[1]} refused: ${response.message}`];
  const body = await response.text();
  return response.ok && body.includes('# TYPE') ? [] : [`the summary's metrics address ${named[1]} answered ${response.status}`];
}

async function main(): Promise<void> {
  if (!readdirSync(path.join(REPOSITORY_ROOT, 'dist')).includes('main.js')) throw new Error('dist/main.js is missing: run `npm run build` first');
  const guides = guideFiles().map((guide) => ({ guide, blocks: blocksOf(guide, readFileSync(path.join(REPOSITORY_ROOT, guide), 'utf8')) }));
  const workDirectory = mkdtempSync(path.join(tmpdir(), 'eh-guides-'));
  const port = await freePort();
  const adminToken = `guide-check-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const server = new StartedServer(
    spawn(process.execPath, [path.join(REPOSITORY_ROOT, 'dist', 'main.js')], {
      cwd: workDirectory,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: cleanEnvironment({
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(workDirectory, 'data'),
        ADMIN_TOKEN: adminToken,
        SKIP_DEMO_SEED: 'true',
        METRICS_PORT: '0',
        LOG_LEVEL: 'warn',
        ...(process.env.HTTP_ADAPTER ? { HTTP_ADAPTER: process.env.HTTP_ADAPTER } : {}),
      }),
    }),
  );
  const problems: string[] = [];
  const counts = { shell: 0, typescript: 0, compiledOnly: 0, marked: 0 };
  const reasons: string[] = [];
  try {
    await waitForSummary(server);
    problems.push(...(await checkMetricsAddress(server.output)));
    const baseUrl = `http://127.0.0.1:${port}`;
    for (const { guide, blocks } of guides) {
      for (const block of blocks.filter(({ mark }) => mark)) {
        reasons.push(`  ${block.guide}:${block.line} (${block.mark?.kind}): ${block.mark?.reason}`);
        if (block.mark?.kind === 'compiled only') counts.compiledOnly += 1;
        else counts.marked += 1;
      }
      const shell = blocks.filter((block) => block.language === 'shell' && !block.mark);
      const typescript = blocks.filter((block) => block.language === 'typescript' && block.mark?.kind !== 'not run');
      if (shell.length === 0 && typescript.length === 0) continue;
      process.stdout.write(`guides: ${guide} (${shell.length} shell, ${typescript.length} TypeScript)\n`);
      const tenant = await tenantFor(guide, baseUrl, adminToken);
      const guideDirectory = mkdtempSync(path.join(workDirectory, 'guide-'));
      if (shell.length > 0) problems.push(...runShellBlocks(guide, shell, port, tenant, adminToken, guideDirectory));
      if (typescript.length > 0) problems.push(...runTypeScriptBlocks(guide, typescript, port, tenant));
      counts.shell += shell.length;
      counts.typescript += typescript.filter(({ mark }) => !mark).length;
    }
  } catch (error) {
    process.stderr.write(`the server's output:\n${server.output.slice(-5000)}\n`);
    throw error;
  } finally {
    await server.stop();
    rmSync(workDirectory, { recursive: true, force: true });
  }
  process.stdout.write(
    `guides: ${counts.shell + counts.typescript} blocks run (${counts.shell} shell, ${counts.typescript} TypeScript), ` +
      `${counts.compiledOnly} TypeScript blocks compiled only, ${counts.marked} blocks marked not run:\n${reasons.join('\n')}\n`,
  );
  if (problems.length > 0) {
    process.stderr.write(`The guides' examples are not what the service does:\n\n${problems.join('\n\n')}\n`);
    process.exit(1);
  }
  process.stdout.write('guides: every answer matches\n');
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
