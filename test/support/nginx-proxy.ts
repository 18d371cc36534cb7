import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from './free-port';
import { NGINX_EXECUTABLE } from './requirements';

/**
 * A real nginx in front of the given upstreams, as a child of the test (no system service): its
 * configuration, temporary files and logs live in a temporary directory, and it listens on
 * loopback only. It forwards the client as a TLS-terminating proxy would (X-Forwarded-For,
 * X-Forwarded-Proto) and names the instance that answered in X-Upstream.
 */
export class NginxProxy {
  private constructor(
    private readonly child: ChildProcess,
    private readonly directory: string,
    readonly baseUrl: string,
    private readonly errors: { text: string },
  ) {}

  static async start(upstreams: string[]): Promise<NginxProxy> {
    const nginx = NGINX_EXECUTABLE;
    if (!nginx) throw new Error('nginx is not installed (apt-get install nginx)');
    const directory = mkdtempSync(path.join(tmpdir(), 'eh-nginx-'));
    const port = await freePort();
    const config = `
daemon off;
master_process off;
worker_processes 1;
pid ${directory}/nginx.pid;
error_log ${directory}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${directory}/client_body;
  proxy_temp_path ${directory}/proxy;
  fastcgi_temp_path ${directory}/fastcgi;
  uwsgi_temp_path ${directory}/uwsgi;
  scgi_temp_path ${directory}/scgi;
  upstream api {
${upstreams.map((upstream) => `    server ${upstream};`).join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 21m;
    location / {
      proxy_pass http://api;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # A write is never sent twice to another instance.
      proxy_next_upstream off;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
    writeFileSync(path.join(directory, 'nginx.conf'), config);
    const child = spawn(nginx, ['-e', path.join(directory, 'error.log'), '-p', directory, '-c', path.join(directory, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    const errors = { text: '' };
    child.stderr?.on('data', (chunk: Buffer) => (errors.text += chunk.toString()));
    const proxy = new NginxProxy(child, directory, `http://127.0.0.1:${port}`, errors);
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${errors.text}`);
      try {
        await fetch(`${proxy.baseUrl}/health/live`);
        return proxy;
      } catch {
        if (Date.now() > deadline) throw new Error(`nginx did not listen within 15 s: ${errors.text}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => (this.child.exitCode !== null ? resolve(null) : this.child.once('exit', resolve)));
    this.child.kill('SIGTERM');
    await exited;
    rmSync(this.directory, { recursive: true, force: true });
  }
}
