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
const compose = parse(composeText, { merge: true }) as { services: Record<string, Service> };
const envExample = readFileSync(path.join(ROOT, '.env.example'), 'utf8');

interface Service {
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
    expect(first.environment?.TRUST_PROXY).toBe('${TRUST_PROXY:-uniquelocal}');

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
});
