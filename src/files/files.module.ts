import { Module } from '@nestjs/common';

/** Files, upload/confirm/download and the object-storage port (issue: files and delivery). */
@Module({})
export class FilesModule {}
