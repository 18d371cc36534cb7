import { Logger } from '@nestjs/common';

/** How often the filter is reloaded: a credential made by an older instance (no checksum) is known everywhere within this. */
export const LEGACY_FILTER_REFRESH_MILLISECONDS = 60_000;
/** 64 bits of each SHA-256 are kept: a false match costs one lookup, and memory stays small. */
const KEPT_HEX_CHARACTERS = 16;

/**
 * The credentials made before checksums existed (or by an instance of an older version during a
 * rolling upgrade), which are valid without one: the hashes of live ones, reloaded every minute.
 * It only grows while older versions still run; after an upgrade it holds the keys of before.
 */
export class LegacyCredentialFilter {
  private hashes = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private readonly logger = new Logger(LegacyCredentialFilter.name);

  constructor(
    private readonly name: string,
    private readonly load: () => Promise<string[]>,
  ) {}

  /** Loads the filter now and then every minute. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh().catch((error: unknown) => this.logger.warn({ err: error }, `Could not reload the ${this.name} filter`)), LEGACY_FILTER_REFRESH_MILLISECONDS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async refresh(): Promise<void> {
    this.hashes = new Set((await this.load()).map((hash) => hash.slice(0, KEPT_HEX_CHARACTERS)));
  }

  /** Whether the credential of this SHA-256 (hex) may be one made without a checksum. */
  has(hash: string): boolean {
    return this.hashes.has(hash.slice(0, KEPT_HEX_CHARACTERS));
  }

  get size(): number {
    return this.hashes.size;
  }
}
