import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  LoggingLevelSchema,
  SetLevelRequestSchema,
  type LoggingLevel,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { GuardedTransport } from './message-guard.js';

const SEVERITY = new Map(LoggingLevelSchema.options.map((level, rank) => [level, rank]));

/**
 * The SDK server with two changes. Every incoming message is screened (depth, request shape) on whatever
 * transport it is given. Log messages can travel with the request they are about: over Streamable HTTP a
 * notification tied to a request goes on that request's stream, which is open for as long as the call
 * runs, while `sendLoggingMessage` can only use the session's GET stream, which a client may not have
 * opened (yet). The level a client sets with `logging/setLevel` is kept here for that.
 */
export class MeshServer extends Server {
  private clientLogLevel: LoggingLevel | undefined;

  override connect(transport: Transport): Promise<void> {
    return super.connect(new GuardedTransport(transport));
  }

  /** Takes over `logging/setLevel` from the SDK's handler; call once, after construction. */
  keepClientLogLevel(): void {
    this.setRequestHandler(SetLevelRequestSchema, (request) => {
      this.clientLogLevel = request.params.level;
      return {};
    });
  }

  /** A `notifications/message` unless below the client's level; with the request it is about, if any. */
  async log(level: LoggingLevel, data: string, relatedRequestId?: RequestId): Promise<void> {
    const floor = this.clientLogLevel;
    if (floor && (SEVERITY.get(level) ?? 0) < (SEVERITY.get(floor) ?? 0)) return;
    await this.notification(
      { method: 'notifications/message', params: { level, logger: 'meshlens', data } },
      relatedRequestId !== undefined ? { relatedRequestId } : undefined,
    );
  }
}
