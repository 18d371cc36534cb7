import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const SOURCE_ROOT = path.resolve(__dirname, '../../src');
const HTTP_FOLDER = path.join(SOURCE_ROOT, 'http');
/** Module specifiers that belong to one adapter: only src/http/ may name them. */
const ADAPTER_MODULE = /^(express|fastify|@nestjs\/platform-[a-z-]+|@fastify\/[a-z-]+|body-parser)(\/.*)?$/;
/** import … from '…', import '…', export … from '…', require('…'), import('…') */
const MODULE_REFERENCE = /(?:\bfrom\s*|\bimport\s*|\brequire\s*\(\s*|\bimport\s*\(\s*)['"]([^'"]+)['"]/g;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('adapter-specific code stays in src/http/', () => {
  it('no file outside src/http/ imports express, fastify or a Nest platform package', () => {
    const offenders: string[] = [];
    const files = sourceFiles(SOURCE_ROOT);
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      if (file.startsWith(`${HTTP_FOLDER}${path.sep}`)) continue;
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(MODULE_REFERENCE)) {
        if (ADAPTER_MODULE.test(match[1])) offenders.push(`${path.relative(SOURCE_ROOT, file)} imports ${match[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('src/http/ itself has one implementation per adapter (the check above would notice nothing if it found no imports)', () => {
    const imported = sourceFiles(HTTP_FOLDER).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(MODULE_REFERENCE)].map((match) => match[1]));
    expect(imported).toEqual(expect.arrayContaining(['express', '@nestjs/platform-express', 'fastify', '@nestjs/platform-fastify']));
  });
});
