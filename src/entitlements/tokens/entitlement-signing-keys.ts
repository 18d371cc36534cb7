import { generateKeyPairSync, KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { calculateJwkThumbprint, JWK } from 'jose';
import { parseEd25519PrivateKey } from '../../config/ed25519-key';

/** A public key as the JWKS publishes it. */
export interface PublishedJwk extends JWK {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: PublishedJwk;
}

interface RetiredKey {
  public_jwk: PublishedJwk;
  retired_at: string;
}

/** DATA_DIR/secrets/…: the public state (current and retired keys) is kept beside the private key. */
interface KeyState {
  current: PublishedJwk | null;
  retired: RetiredKey[];
}

const PRIVATE_KEY_FILE = 'entitlement-signing-key.jwk';
const STATE_FILE = 'entitlement-signing-keys.json';
/** A running instance looks for a rotation made by the CLI at most this often. */
const RELOAD_INTERVAL_MILLISECONDS = 5_000;

export interface SigningKeyOptions {
  /** ENTITLEMENT_SIGNING_KEY: PEM or JWK; undefined → the key generated into DATA_DIR. */
  configuredKey: string | undefined;
  dataDirectory: string;
  /** A retired key stays published this long: every token it signed has expired by then. */
  tokenTtlMilliseconds: number;
}

function secretsDirectory(dataDirectory: string): string {
  const directory = path.join(dataDirectory, 'secrets');
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  return directory;
}

/** Written beside the target and renamed: a reader sees the old file or the new one, never half. */
function writeAtomically(file: string, content: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600 });
  renameSync(temporary, file);
}

async function publicJwkOf(privateKey: KeyObject): Promise<PublishedJwk> {
  const { crv, x } = privateKey.export({ format: 'jwk' }) as { crv: string; x: string };
  const base = { kty: 'OKP' as const, crv: crv as 'Ed25519', x };
  // RFC 7638 thumbprint: the same key gives the same kid on every instance.
  return { ...base, kid: await calculateJwkThumbprint(base, 'sha256'), alg: 'EdDSA', use: 'sig' };
}

function generatePrivateKeyJwk(): string {
  return JSON.stringify(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }));
}

function readState(file: string): KeyState {
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as Partial<KeyState>;
    return { current: state.current ?? null, retired: Array.isArray(state.retired) ? state.retired : [] };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { current: null, retired: [] };
    throw new Error(`${file} is not a valid key state file: ${(error as Error).message}`);
  }
}

/**
 * The Ed25519 key that signs entitlement tokens, and the public keys the JWKS publishes (DESIGN
 * §12). The private key is ENTITLEMENT_SIGNING_KEY, or one generated at first start into
 * DATA_DIR/secrets (mode 0600). When it changes (the variable changed, or `signing-keys:rotate`
 * replaced the file), the previous public key is recorded with its retirement time and stays
 * published for one token lifetime, so tokens it signed verify until they expire.
 */
export class EntitlementSigningKeys {
  private active!: SigningKey;
  private published: PublishedJwk[] = [];
  /** Retired keys' kid → until when they are published (ms). */
  private publishedUntil = new Map<string, number>();
  private loadedKeyFileModified = 0;
  private nextReloadCheck = 0;

  private constructor(
    private readonly options: SigningKeyOptions,
    private readonly now: () => Date,
  ) {}

  static async load(options: SigningKeyOptions, now: () => Date = () => new Date()): Promise<EntitlementSigningKeys> {
    const keys = new EntitlementSigningKeys(options, now);
    await keys.reload();
    return keys;
  }

  /**
   * Generates a new key into DATA_DIR and retires the current one (the CLI's
   * `signing-keys:rotate`). Refused when ENTITLEMENT_SIGNING_KEY is set: then rotating means
   * changing that variable on every instance.
   */
  static async rotate(options: SigningKeyOptions, now: Date = new Date()): Promise<{ kid: string; retired_kid: string | null; retired_key_published_until: string | null }> {
    if (options.configuredKey !== undefined) {
      throw new Error('ENTITLEMENT_SIGNING_KEY is set: rotate by setting a new key there (the previous one stays published one token lifetime)');
    }
    const directory = secretsDirectory(options.dataDirectory);
    const previous = (await EntitlementSigningKeys.load(options, () => now)).active;
    writeAtomically(path.join(directory, PRIVATE_KEY_FILE), generatePrivateKeyJwk());
    const rotated = await EntitlementSigningKeys.load(options, () => now);
    return {
      kid: rotated.active.kid,
      retired_kid: previous.kid,
      retired_key_published_until: new Date(now.getTime() + options.tokenTtlMilliseconds).toISOString(),
    };
  }

  /** The key to sign with now (picks up a rotation made by the CLI within a few seconds). */
  async signingKey(): Promise<SigningKey> {
    await this.reloadIfRotated();
    return this.active;
  }

  /** The JWKS: the signing key first, then retired keys still within a token lifetime of their retirement. */
  async jwks(): Promise<{ keys: PublishedJwk[] }> {
    await this.reloadIfRotated();
    const now = this.now().getTime();
    return { keys: this.published.filter((key) => key.kid === this.active.kid || (this.publishedUntil.get(key.kid) ?? 0) > now) };
  }

  private async reloadIfRotated(): Promise<void> {
    if (this.options.configuredKey !== undefined) return;
    const now = Date.now();
    if (now < this.nextReloadCheck) return;
    this.nextReloadCheck = now + RELOAD_INTERVAL_MILLISECONDS;
    const modified = statSync(path.join(secretsDirectory(this.options.dataDirectory), PRIVATE_KEY_FILE), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (modified !== this.loadedKeyFileModified) await this.reload();
  }

  private async reload(): Promise<void> {
    const directory = secretsDirectory(this.options.dataDirectory);
    const privateKey = this.options.configuredKey !== undefined ? parseEd25519PrivateKey(this.options.configuredKey) : this.generatedKey(directory);
    const publicJwk = await publicJwkOf(privateKey);
    const now = this.now();
    const stateFile = path.join(directory, STATE_FILE);
    const state = readState(stateFile);
    if (state.current && state.current.kid !== publicJwk.kid) {
      state.retired = [...state.retired.filter((key) => key.public_jwk.kid !== state.current?.kid), { public_jwk: state.current, retired_at: now.toISOString() }];
    }
    // A key brought back (say an old ENTITLEMENT_SIGNING_KEY) is current, not retired.
    state.retired = state.retired.filter(
      (key) => key.public_jwk.kid !== publicJwk.kid && new Date(key.retired_at).getTime() + this.options.tokenTtlMilliseconds > now.getTime(),
    );
    state.current = publicJwk;
    writeAtomically(stateFile, `${JSON.stringify(state, null, 2)}\n`);
    this.active = { kid: publicJwk.kid, privateKey, publicJwk };
    this.published = [publicJwk, ...state.retired.map((key) => key.public_jwk)];
    this.publishedUntil = new Map(state.retired.map((key) => [key.public_jwk.kid, new Date(key.retired_at).getTime() + this.options.tokenTtlMilliseconds]));
  }

  /** The key generated into DATA_DIR at first start ('wx': of two processes starting together, one writes it). */
  private generatedKey(directory: string): KeyObject {
    const file = path.join(directory, PRIVATE_KEY_FILE);
    try {
      writeFileSync(file, generatePrivateKeyJwk(), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    this.loadedKeyFileModified = statSync(file).mtimeMs;
    try {
      return parseEd25519PrivateKey(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`${file}: ${(error as Error).message}`);
    }
  }
}
