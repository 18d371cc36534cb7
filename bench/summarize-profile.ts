import { readFileSync } from 'node:fs';

/**
 * `node -r ts-node/register/transpile-only bench/summarize-profile.ts <file.cpuprofile>`: the
 * server's CPU by where it was spent (self time): each npm package, each of our source folders,
 * Node's own internals, garbage collection and idle, as shares of the busy time. A V8 CPU profile
 * is a tree of call frames with sample counts; only the frame a sample landed in is counted.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function placeOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1];
  const sourceMatch = /\/dist\/([^/]+)\//.exec(url) ?? /\/src\/([^/]+)\//.exec(url);
  if (sourceMatch) return `ours: ${sourceMatch[1]}/`;
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/')[0]}`;
  return url;
}

const file = process.argv[2];
if (!file) throw new Error('usage: summarize-profile.ts <file.cpuprofile>');
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const microseconds = new Map<string, number>();
profile.samples.forEach((id, index) => {
  const node = byId.get(id);
  if (!node) return;
  const place = placeOf(node);
  microseconds.set(place, (microseconds.get(place) ?? 0) + (profile.timeDeltas[index] ?? 0));
});
const idle = microseconds.get('(idle)') ?? 0;
const busy = [...microseconds.values()].reduce((sum, value) => sum + value, 0) - idle;
process.stdout.write(`busy ${(busy / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s\n`);
const rows = [...microseconds.entries()].filter(([place]) => place !== '(idle)').sort((left, right) => right[1] - left[1]);
for (const [place, value] of rows.slice(0, Number(process.env.TOP ?? 25))) {
  process.stdout.write(`${((100 * value) / busy).toFixed(1).padStart(5)}%  ${place}\n`);
}
