import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { ProductEntity } from '../products/product.entity';
import { FileEntity } from './file.entity';

const tenantWhere = (tenant: Tenant) => ({ merchant_id: tenant.merchantId, mode: tenant.mode });

@Injectable()
export class FilesRepository {
  constructor(private readonly dataSource: DataSource) {}

  findById(tenant: Tenant, fileId: string, manager: EntityManager = this.dataSource.manager): Promise<FileEntity | null> {
    return manager.findOne(FileEntity, { where: { id: fileId, ...tenantWhere(tenant) } });
  }

  /** The file row locked for the rest of the transaction (confirm). */
  lockById(manager: EntityManager, tenant: Tenant, fileId: string): Promise<FileEntity | null> {
    return manager
      .createQueryBuilder(FileEntity, 'file')
      .setLock('pessimistic_write')
      .where('file.id = :fileId AND file.merchant_id = :merchantId AND file.mode = :mode', {
        fileId,
        merchantId: tenant.merchantId,
        mode: tenant.mode,
      })
      .getOne();
  }

  insert(manager: EntityManager, file: FileEntity): Promise<FileEntity> {
    return manager.save(FileEntity, file);
  }

  save(manager: EntityManager, file: FileEntity): Promise<FileEntity> {
    return manager.save(FileEntity, file);
  }

  async incrementDownloadCount(manager: EntityManager, tenant: Tenant, fileId: string): Promise<void> {
    await manager.increment(FileEntity, { id: fileId, ...tenantWhere(tenant) }, 'download_count', 1);
  }

  /** The product of this tenant, locked so concurrent links to it append in turn. */
  lockProduct(manager: EntityManager, tenant: Tenant, productId: string): Promise<ProductEntity | null> {
    return manager
      .createQueryBuilder(ProductEntity, 'product')
      .setLock('pessimistic_write')
      .where('product.id = :productId AND product.merchant_id = :merchantId AND product.mode = :mode', {
        productId,
        merchantId: tenant.merchantId,
        mode: tenant.mode,
      })
      .getOne();
  }

  /** Appends the file to the product's fulfillment_config.file_ids (the many-to-many link). */
  async linkToProduct(manager: EntityManager, tenant: Tenant, productId: string, fileId: string): Promise<void> {
    await manager.query(
      `UPDATE products
          SET fulfillment_config = jsonb_set(
                fulfillment_config, '{file_ids}',
                COALESCE(fulfillment_config->'file_ids', '[]'::jsonb) || jsonb_build_array($4::text)),
              updated_at = now()
        WHERE id = $1 AND merchant_id = $2 AND mode = $3`,
      [productId, tenant.merchantId, tenant.mode, fileId],
    );
  }

  /** CONFIRMED files of this tenant among `fileIds`. */
  findConfirmed(tenant: Tenant, fileIds: string[]): Promise<FileEntity[]> {
    if (fileIds.length === 0) return Promise.resolve([]);
    return this.dataSource.manager
      .createQueryBuilder(FileEntity, 'file')
      .where('file.merchant_id = :merchantId AND file.mode = :mode', { merchantId: tenant.merchantId, mode: tenant.mode })
      .andWhere(`file.upload_status = 'CONFIRMED' AND file.id IN (:...fileIds)`, { fileIds })
      .getMany();
  }

  /** One keyset page (limit + 1 rows) and the total, newest first. */
  async list(tenant: Tenant, page: PageRequest): Promise<{ rows: FileEntity[]; total: number }> {
    const base = () =>
      this.dataSource.manager
        .createQueryBuilder(FileEntity, 'file')
        .where('file.merchant_id = :merchantId AND file.mode = :mode', { merchantId: tenant.merchantId, mode: tenant.mode });
    return fetchPageWithTotal(base, 'file', page);
  }
}
