import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { configSchema } from '../../src/config/config.schema';

const REPOSITORY_ROOT = path.resolve(__dirname, '../..');

/** Every Markdown file a reader follows links through: the README, the guides, the packages' READMEs. */
function documentationFiles(): string[] {
  const guides = readdirSync(path.join(REPOSITORY_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('docs', name));
  return ['README.md', ...guides, 'sdk/README.md', 'bench/README.md'].filter((file) => existsSync(path.join(REPOSITORY_ROOT, file)));
}

/** Markdown without its fenced code blocks and inline code, where `[x](y)` is not a link. */
function proseOf(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of proseOf(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

interface Link {
  file: string;
  target: string;
}

function relativeLinksOf(file: string): Link[] {
  const prose = proseOf(readFileSync(path.join(REPOSITORY_ROOT, file), 'utf8'));
  const targets = [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target)).map((target) => ({ file, target }));
}

/** Why a link leads nowhere, or null when it resolves to a file (and heading) of the repository. */
function brokenReason({ file, target }: Link): string | null {
  const [pathPart, anchor] = target.split('#', 2);
  const resolved = pathPart === '' ? path.join(REPOSITORY_ROOT, file) : path.resolve(path.dirname(path.join(REPOSITORY_ROOT, file)), decodeURIComponent(pathPart));
  if (!resolved.startsWith(REPOSITORY_ROOT)) return 'leaves the repository';
  if (!existsSync(resolved)) return 'no such file';
  if (anchor === undefined) return null;
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return 'an anchor into something that is not Markdown';
  return anchorsOf(readFileSync(resolved, 'utf8')).has(anchor) ? null : `no heading #${anchor} in ${path.relative(REPOSITORY_ROOT, resolved)}`;
}

describe('documentation', () => {
  it('finds the README and its guides', () => {
    expect(documentationFiles()).toEqual(expect.arrayContaining(['README.md', 'docs/configuration.md', 'docs/development.md']));
  });

  it('has no relative link that leads nowhere (files and heading anchors)', () => {
    const links = documentationFiles().flatMap(relativeLinksOf);
    expect(links.length).toBeGreaterThan(20);
    const broken = links.map((link) => ({ ...link, reason: brokenReason(link) })).filter((link) => link.reason !== null);
    expect(broken).toEqual([]);
  });

  it('links every guide in docs/ from the README', () => {
    const linked = new Set(relativeLinksOf('README.md').map(({ target }) => path.normalize(target.split('#')[0])));
    const guides = documentationFiles().filter((file) => file.startsWith('docs/'));
    expect(guides.filter((guide) => !linked.has(path.normalize(guide)))).toEqual([]);
  });

  it('keeps the README short enough to read in five minutes', () => {
    expect(readFileSync(path.join(REPOSITORY_ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });

  it('lists every configuration variable in the configuration guide and in .env.example', () => {
    const variables = Object.keys(configSchema.shape);
    const guide = readFileSync(path.join(REPOSITORY_ROOT, 'docs/configuration.md'), 'utf8');
    const example = readFileSync(path.join(REPOSITORY_ROOT, '.env.example'), 'utf8');
    expect(variables.filter((name) => !new RegExp(`\\|[^\\n]*\`${name}\``).test(guide))).toEqual([]);
    expect(variables.filter((name) => !new RegExp(`^#?${name}=`, 'm').test(example))).toEqual([]);
  });
});
