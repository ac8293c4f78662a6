import { Injectable } from '@nestjs/common';
import { AmqpConnection, RabbitSubscribe } from '@golevelup/nestjs-rabbitmq';

const EXCHANGE = 'payments';

@Injectable()
export class PaymentsService {
  constructor(private readonly amqp: AmqpConnection) {}

  @RabbitSubscribe({ exchange: EXCHANGE, routingKey: ['payment.requested', 'payment.retried'], queue: 'payments-worker' })
  async onRequested(msg: unknown): Promise<void> {
    await this.amqp.publish(EXCHANGE, 'payment.completed', msg);
  }

  @RabbitSubscribe({ queue: 'payments-audit' })
  async onAudit(msg: unknown): Promise<void> {}
}
