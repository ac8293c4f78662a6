import { Inject, Injectable, Provider } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';

export const DB_POOL = Symbol('DB_POOL');

export const dbPoolProvider: Provider = {
  provide: DB_POOL,
  useFactory: (): Pool => new Pool({ connectionString: process.env.DATABASE_URL }),
};

/**
 * Transactional outbox: events are written to the `outbox` table in the same database as the order
 * and relayed to Kafka by the platform's CDC connector, which uses the row's `topic` column as-is.
 */
@Injectable()
export class OutboxService {
  constructor(@Inject(DB_POOL) private readonly db: Pool) {}

  async publishEvent(topic: string, payload: Record<string, unknown>): Promise<void> {
    await this.db.query(
      'INSERT INTO outbox (id, topic, payload, created_at) VALUES ($1, $2, $3, now())',
      [randomUUID(), topic, JSON.stringify(payload)],
    );
  }
}
