import { Injectable, OnModuleInit } from '@nestjs/common';
import { PruneTask, Pruner } from '../database/pruner';
import type { Transaction } from '../database/transaction';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IDEMPOTENCY_KEY_RETENTION_MILLISECONDS } from './idempotency.service';

/** Idempotency keys past their 24 h (DESIGN §4), deleted by the Pruner in batches. */
@Injectable()
export class IdempotencyPruner implements PruneTask, OnModuleInit {
  readonly name = 'idempotency_keys';

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly pruner: Pruner,
  ) {}

  onModuleInit(): void {
    this.pruner.register(this);
  }

  pruneBatch(tx: Transaction, limit: number, now: Date): Promise<number> {
    return this.keys.deleteCreatedBefore(tx, new Date(now.getTime() - IDEMPOTENCY_KEY_RETENTION_MILLISECONDS), limit);
  }
}
