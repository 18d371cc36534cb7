import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { ApiError } from '../errors/api-error';
import { CLI_COMMANDS, CliOptions, CliUsageError } from './cli-commands';
import { CliModule } from './cli.module';

function help(): string {
  const lines = Object.entries(CLI_COMMANDS).map(([name, command]) => `  ${name.padEnd(20)} ${command.summary}\n  ${' '.repeat(20)} ${command.usage}`);
  return ['Usage: npm run cli -- <command> [options]   (prints JSON on stdout)', '', ...lines, ''].join('\n');
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
      },
      strict: true,
    });
    return values;
  } catch (error: unknown) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
}

function printError(code: string, message: string, extra: Record<string, string> = {}): void {
  process.stderr.write(`${JSON.stringify({ error: { code, message, ...extra } })}\n`);
}

/** Prints one JSON document on stdout; errors as {"error": {...}} on stderr with exit code 1 (2 for usage). */
async function main(argv: string[]): Promise<number> {
  const [commandName, ...rest] = argv;
  const command = commandName ? CLI_COMMANDS[commandName] : undefined;
  if (!command) {
    process.stderr.write(help());
    return commandName && commandName !== 'help' ? 2 : 0;
  }
  let context: Awaited<ReturnType<typeof NestFactory.createApplicationContext>> | null = null;
  try {
    const options = parseOptions(rest);
    context = await NestFactory.createApplicationContext(CliModule.forRoot(), { logger: ['error'] });
    const result = await command.run(context, options);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error: unknown) {
    if (error instanceof CliUsageError) {
      printError('USAGE', error.message, { usage: `${commandName} ${command.usage}` });
      return 2;
    }
    if (error instanceof ApiError) {
      printError(error.renderedCode, error.message);
      return 1;
    }
    throw error;
  } finally {
    await context?.close();
  }
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    printError('INTERNAL_ERROR', error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
