import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../database/unit-of-work';
import { ServerSecretsRepository } from './server-secrets.repository';

/** Named server secrets for other modules (license keys' checksum and encryption): one row each, shared by every instance. */
@Injectable()
export class ServerSecrets {
  constructor(
    private readonly secrets: ServerSecretsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  obtain(name: string): Promise<Buffer> {
    return this.unitOfWork.run((tx) => this.secrets.obtain(tx, name));
  }
}
