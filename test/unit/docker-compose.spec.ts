import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { configSchema } from '../../src/config/config.schema';

/**
 * docker-compose.yml can't be run here (no Docker), so it is checked as data: it parses, its
 * variables are those of .env.example and the config schema, and the `instances` profile has the
 * shape DESIGN §15 asks for (two instances behind a proxy, sharing what they must share).
 */
const ROOT = path.resolve(__dirname, '../..');
const composeText = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
const compose = parse(composeText, { merge: true }) as { services: Record<string, Service>; networks?: Record<string, { ipam?: { config?: Array<{ subnet?: string }> } }> };
const envExample = readFileSync(path.join(ROOT, '.env.example'), 'utf8');

interface Service {
  networks?: Record<string, { ipv4_address?: string }>;
  image?: string;
  build?: string;
  profiles?: string[];
  ports?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: string[] | Record<string, unknown>;
}

describe('docker-compose.yml', () => {
  it('names only variables of .env.example, and gives the API only variables of the config schema', () => {
    const interpolated = [...composeText.matchAll(/\$\{([A-Z0-9_]+)/g)].map((match) => match[1]);
    expect(interpolated.filter((name) => !new RegExp(`^#?${name}=`, 'm').test(envExample))).toEqual([]);
    const schemaVariables = Object.keys(configSchema.shape);
    for (const name of ['api', 'api-2']) {
      expect(Object.keys(compose.services[name].environment ?? {}).filter((variable) => !schemaVariables.includes(variable))).toEqual([]);
    }
  });

  it('starts one instance by default, and two behind nginx with the instances profile', () => {
    const byDefault = Object.entries(compose.services).filter(([, service]) => !service.profiles).map(([name]) => name);
    expect(byDefault).toEqual(expect.arrayContaining(['api', 'postgres', 'redis', 'minio']));
    expect(byDefault).not.toContain('api-2');
    const profiled = Object.entries(compose.services).filter(([, service]) => service.profiles?.includes('instances')).map(([name]) => name);
    expect(profiled.sort()).toEqual(['api-2', 'proxy']);

    const [first, second] = [compose.services.api, compose.services['api-2']];
    // The same image and settings; the second is reached only through the proxy.
    expect(second.build).toBe(first.build);
    expect(second.environment).toEqual(first.environment);
    expect(second.ports).toEqual([]);
    // Shared: the database, Redis (counters, revocation), S3 (files), the data volume (generated secrets).
    expect(first.environment).toMatchObject({ REDIS_URL: 'redis://redis:6379', STORAGE_DRIVER: 's3' });
    expect(second.volumes).toEqual(first.volumes);
    // Nobody is trusted unless the proxy is there (see the TRUST_PROXY test below).
    expect(first.environment?.TRUST_PROXY).toBe('${TRUST_PROXY:-}');

    const proxy = compose.services.proxy;
    expect(proxy.image).toMatch(/^nginx:/);
    expect(proxy.ports).toEqual(['127.0.0.1:8080:80']);
    expect(proxy.volumes).toEqual(['./deploy/nginx.conf:/etc/nginx/nginx.conf:ro']);
  });

  it("has an nginx config whose upstream is the profile's two instances and which forwards the client", () => {
    const nginx = readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8');
    expect([...nginx.matchAll(/^\s*server (\S+);/gm)].map((match) => match[1])).toEqual(['api:3000', 'api-2:3000']);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-Proto \$scheme;/);
  });

  it('trusts exactly the proxy of the instances profile, as docs/operations.md and .env.example say, and nobody without it', () => {
    const proxyAddress = compose.services.proxy.networks?.default?.ipv4_address ?? '';
    const subnet = compose.networks?.default?.ipam?.config?.[0]?.subnet ?? '';
    expect(proxyAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    // The proxy is on the fixed subnet, and is not its gateway (.1), through which published ports arrive.
    const [network, bits] = subnet.split('/');
    expect(bits).toBe('24');
    expect(proxyAddress.split('.').slice(0, 3)).toEqual(network.split('.').slice(0, 3));
    expect(proxyAddress.endsWith('.1')).toBe(false);
    const operations = readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
    const table = operations.slice(operations.indexOf('**`TRUST_PROXY` with compose**'));
    expect(table).toContain('| `docker compose up` (no proxy) | unset');
    expect(table).toContain(`| \`TRUST_PROXY=${proxyAddress} docker compose --profile instances up\` | \`${proxyAddress}\` |`);
    expect(table).toContain(`\`${subnet}\``);
    expect(envExample).toContain(`TRUST_PROXY=${proxyAddress}`);
    // Every documented start of the instances profile sets it.
    for (const file of ['docker-compose.yml', 'docs/operations.md', 'docs/observability.md']) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const line of text.split('\n').filter((candidate) => /docker compose .*--profile instances up/.test(candidate))) {
        expect({ file, line: line.includes(`TRUST_PROXY=${proxyAddress}`) }).toEqual({ file, line: true });
      }
    }
  });
});
