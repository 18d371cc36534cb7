import { readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { openScriptDataSource } from './migration-support';

/**
 * `npm run migration:generate -- <Name>`: runs the committed migrations, diffs the entities against
 * the result and writes the difference as a new migration. With `--check` (CI) it writes nothing
 * and fails when there is a difference, i.e. when entities and migrations have drifted.
 */
const MIGRATIONS_DIRECTORY = path.join(__dirname, '..', 'src', 'database', 'migrations');

function quote(query: string): string {
  return '`' + query.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';
}

function writeIndex(): void {
  const files = readdirSync(MIGRATIONS_DIRECTORY)
    .filter((file) => /^\d+-[A-Za-z0-9]+\.ts$/.test(file))
    .sort();
  const classes = files.map((file) => {
    const [timestamp, name] = file.replace(/\.ts$/, '').split('-');
    return { file: file.replace(/\.ts$/, ''), className: `${name}${timestamp}` };
  });
  const lines = [
    '// Written by scripts/migration-generate.ts: every migration, in order.',
    ...classes.map(({ file, className }) => `import { ${className} } from './${file}';`),
    '',
    `export const MIGRATIONS = [${classes.map(({ className }) => className).join(', ')}];`,
    '',
  ];
  writeFileSync(path.join(MIGRATIONS_DIRECTORY, 'index.ts'), lines.join('\n'));
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const name = process.argv.slice(2).find((argument) => !argument.startsWith('--')) ?? 'Migration';
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new Error('The migration name must be alphanumeric, e.g. AddFiles');
  const { dataSource, close } = await openScriptDataSource();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    const { upQueries, downQueries } = await dataSource.driver.createSchemaBuilder().log();
    if (upQueries.length === 0) {
      process.stdout.write('Entities and migrations agree: nothing to generate.\n');
      return;
    }
    if (check) {
      process.stderr.write('Entities and migrations have drifted. Run `npm run migration:generate -- <Name>`. Missing:\n');
      for (const query of upQueries) process.stderr.write(`  ${query.query}\n`);
      process.exitCode = 1;
      return;
    }
    const timestamp = Date.now();
    const className = `${name}${timestamp}`;
    const render = (queries: typeof upQueries) =>
      queries
        .map((query) => `    await queryRunner.query(${quote(query.query)}${query.parameters?.length ? `, ${JSON.stringify(query.parameters)}` : ''});`)
        .join('\n');
    const source = [
      "import { MigrationInterface, QueryRunner } from 'typeorm';",
      '',
      `export class ${className} implements MigrationInterface {`,
      `  name = '${className}';`,
      '',
      '  async up(queryRunner: QueryRunner): Promise<void> {',
      render(upQueries),
      '  }',
      '',
      '  async down(queryRunner: QueryRunner): Promise<void> {',
      render([...downQueries].reverse()),
      '  }',
      '}',
      '',
    ].join('\n');
    const file = path.join(MIGRATIONS_DIRECTORY, `${timestamp}-${name}.ts`);
    writeFileSync(file, source);
    writeIndex();
    process.stdout.write(`Wrote ${path.relative(process.cwd(), file)} (${upQueries.length} statements)\n`);
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
