import { parseArgs } from 'node:util';
import { checkOptions, CLI_USAGE, CliCommandUsage, CliOptions, CliText, CliUsageError } from './cli-usage';

// Only node:util, node:fs and the usage table load up front: `help`, unknown commands and every
// usage error answer in milliseconds, and a command requires Nest, TypeORM and the database only
// once its command line has passed every check.

function help(): string {
  const lines = Object.entries(CLI_USAGE).map(([name, command]) => `  ${name.padEnd(20)} ${command.summary}\n  ${' '.repeat(20)} ${command.usage}`);
  return ['Usage: npm run cli -- <command> [options]   (prints JSON on stdout; errors as one JSON object on stderr)', '', ...lines, ''].join('\n');
}

/** The command's own options only: an unknown flag, a positional argument or a flag without its value is a usage error. */
function parseOptions(command: CliCommandUsage, args: string[]): CliOptions {
  try {
    const options = Object.fromEntries(Object.keys(command.options).map((name) => [name, { type: 'string' as const }]));
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as CliOptions;
  } catch (error: unknown) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
}

function printError(code: string, message: string, extra: Record<string, unknown> = {}): void {
  process.stderr.write(`${JSON.stringify({ error: { code, message, ...extra } })}\n`);
}

/** The code and message to print for a refusal, or null for a failure of our own (INTERNAL_ERROR). */
async function describeError(error: unknown): Promise<{ code: string; message: string } | null> {
  const [{ ApiError }, { isDatabaseUnavailable }] = await Promise.all([import('../errors/api-error'), import('../errors/database-unavailable')]);
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ApiError) return { code: error.renderedCode, message };
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  // The embedded database held by another process, or the probe's verdict (database-probe.ts).
  if (code === 'DATABASE_IN_USE' || code === 'DATABASE_UNREACHABLE') return { code, message };
  // The database went away after the probe (a restart while the command ran).
  if (isDatabaseUnavailable(error)) {
    const { databaseUnreachable } = await import('./database-probe');
    return { code: 'DATABASE_UNREACHABLE', message: databaseUnreachable(process.env.DATABASE_URL ?? '', error).message };
  }
  return null;
}

async function run(commandName: string, options: CliOptions): Promise<unknown> {
  await import('reflect-metadata');
  if (!CLI_USAGE[commandName]?.opensDatabase) {
    const [{ CONFIGURATION_COMMANDS }, { AppConfig }, { validateEnvironment }] = await Promise.all([
      import('./cli-commands'),
      import('../config/app-config'),
      import('../config/config.schema'),
    ]);
    return CONFIGURATION_COMMANDS[commandName]?.run(new AppConfig(validateEnvironment(process.env)), options);
  }
  const databaseUrl = process.env.DATABASE_URL?.trim();
  if (databaseUrl) await (await import('./database-probe')).probeDatabase(databaseUrl);
  const [{ NestFactory }, { CLI_COMMANDS }, { CliModule }, { ENTITIES }] = await Promise.all([
    import('@nestjs/core'),
    import('./cli-commands'),
    import('./cli.module'),
    import('../app-entities'),
  ]);
  // No Nest logger: a failure to boot (the embedded database in use, say) becomes the JSON error below, not a coloured stack trace.
  const command = CLI_COMMANDS[commandName];
  const context = await NestFactory.createApplicationContext(CliModule.forRoot(ENTITIES, (await command?.modules?.()) ?? []), { logger: false, abortOnError: false });
  try {
    return await command?.run(context, options);
  } finally {
    await context.close();
  }
}

/** Prints one JSON document on stdout; errors as {"error": {...}} on stderr with exit code 1 (2 for usage). */
async function main(argv: string[]): Promise<number> {
  const [commandName, ...rest] = argv;
  if (commandName === undefined || commandName === 'help' || commandName === '--help') {
    process.stdout.write(help());
    return 0;
  }
  const command = CLI_USAGE[commandName];
  if (!command) {
    printError('UNKNOWN_COMMAND', `Unknown command '${commandName}'; run \`npm run cli -- help\` for the list`, { commands: Object.keys(CLI_USAGE) });
    return 2;
  }
  try {
    const options = parseOptions(command, rest);
    checkOptions(command, options);
    const result = await run(commandName, options);
    process.stdout.write(result instanceof CliText ? result.text : `${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error: unknown) {
    if (error instanceof CliUsageError) {
      printError('USAGE', error.message, { usage: `${commandName} ${command.usage}` });
      return 2;
    }
    const refusal = await describeError(error);
    if (refusal) {
      printError(refusal.code, refusal.message);
      return 1;
    }
    throw error;
  }
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    printError('INTERNAL_ERROR', error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
