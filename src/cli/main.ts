import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { ApiError } from '../errors/api-error';
import { CLI_COMMANDS, CliUsageError } from './cli-commands';
import { CliModule } from './cli.module';

function help(): string {
  const lines = Object.entries(CLI_COMMANDS).map(([name, command]) => `  ${name.padEnd(20)} ${command.summary}\n  ${' '.repeat(20)} ${command.usage}`);
  return ['Usage: npm run cli -- <command> [options]   (prints JSON on stdout)', '', ...lines, ''].join('\n');
}

/** Prints one JSON document on stdout; errors as {"error": {...}} on stderr with exit code 1 (2 for usage). */
async function main(argv: string[]): Promise<number> {
  const [commandName, ...rest] = argv;
  const command = commandName ? CLI_COMMANDS[commandName] : undefined;
  if (!command) {
    process.stderr.write(help());
    return commandName && commandName !== 'help' ? 2 : 0;
  }
  const { values } = parseArgs({
    args: rest,
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
  const context = await NestFactory.createApplicationContext(CliModule.forRoot(), { logger: ['error'] });
  try {
    const result = await command.run(context, values);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error: unknown) {
    if (error instanceof CliUsageError) {
      process.stderr.write(`${JSON.stringify({ error: { code: 'USAGE', message: error.message, usage: `${commandName} ${command.usage}` } })}\n`);
      return 2;
    }
    if (error instanceof ApiError) {
      process.stderr.write(`${JSON.stringify({ error: { code: error.renderedCode, message: error.message } })}\n`);
      return 1;
    }
    throw error;
  } finally {
    await context.close();
  }
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`${JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) } })}\n`);
    process.exit(1);
  });
