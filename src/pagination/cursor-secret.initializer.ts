import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { loadServerSecret } from '../config/server-secret';
import { useCursorSecret } from './cursor';

/**
 * Gives the cursor codec its key at start: CURSOR_SECRET, or a secret generated once into
 * DATA_DIR/secrets (set CURSOR_SECRET when several instances serve one API, so a cursor from one
 * is valid on the others).
 */
@Injectable()
export class CursorSecretInitializer implements OnModuleInit {
  constructor(private readonly config: AppConfig) {}

  onModuleInit(): void {
    useCursorSecret(loadServerSecret(this.config.cursorSecret, this.config.dataDirectory, 'cursor.key'));
  }
}
