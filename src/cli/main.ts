import { parseArgs } from 'node:util';
import { CLI_USAGE, CliOptions, CliUsageError } from './cli-usage';

// Only node:util and the usage table load up front: `help`, unknown commands and usage errors answer
// in milliseconds, and a command requires Nest, TypeORM and the database only once it runs.

function help(): string {
  const lines = Object.entries(CLI_USAGE).map(([name, command]) => `  ${name.padEnd(20)} ${command.summary}\n  ${' '.repeat(20)} ${command.usage}`);
  return ['Usage: npm run cli -- <command> [options]   (prints JSON on stdout; errors as one JSON object on stderr)', '', ...lines, ''].join('\n');
}

function parseOptions(args: string[]): CliOptions {
  try {
    const { values } = parseArgs({
      args,
      options: {
        name: { type: 'string' },
        plan: { type: 'string' },
        merchant: { type: 'string' },
        mode: { type: 'string' },
        scopes: { type: 'string' },
        key: { type: 'string' },
        file: { type: 'string' },
        email: { type: 'string' },
      },
      strict: true,
    });
    return values;
  } catch (error: unknown) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
}

function printError(code: string, message: string, extra: Record<string, unknown> = {}): void {
  process.stderr.write(`${JSON.stringify({ error: { code, message, ...extra } })}\n`);
}

/** The error's catalogue code when it is an ApiError or carries its own (`DATABASE_IN_USE`). */
async function errorCode(error: unknown): Promise<string | null> {
  const { ApiError } = await import('../errors/api-error');
  if (error instanceof ApiError) return error.renderedCode;
  if (error instanceof Error && 'code' in error && error.code === 'DATABASE_IN_USE') return error.code;
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
    const options = parseOptions(rest);
    const missing = command.requiredOptions.find((name) => options[name] === undefined || options[name] === '');
    if (missing) throw new CliUsageError(`--${missing} is required`);
    const result = await run(commandName, options);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error: unknown) {
    if (error instanceof CliUsageError) {
      printError('USAGE', error.message, { usage: `${commandName} ${command.usage}` });
      return 2;
    }
    const code = await errorCode(error);
    if (code) {
      printError(code, error instanceof Error ? error.message : String(error));
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
