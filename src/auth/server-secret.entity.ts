import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { TIMESTAMP } from '../database/columns';

/**
 * Secrets every instance must share, kept where every instance already looks: the database. The
 * first instance to need one generates it; the others read the same row.
 */
@Entity('server_secrets')
export class ServerSecretEntity {
  @PrimaryColumn({ type: 'text' })
  name: string;

  /** Base64 of the random bytes. */
  @Column({ type: 'text' })
  value: string;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
