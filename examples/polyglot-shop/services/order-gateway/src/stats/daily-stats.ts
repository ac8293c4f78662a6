import { Injectable, Logger } from '@nestjs/common';

import { OrderService } from '../orders/order.service';

function startOfDay(now = new Date()): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

@Injectable()
export class DailyStats {
  private readonly logger = new Logger(DailyStats.name);

  constructor(private readonly orders: OrderService) {}

  report(): void {
    const ordersCreated = this.orders.countCreatedSince(startOfDay());
    this.logger.log({ ordersCreated, day: startOfDay().toISOString() }, 'daily order stats');
  }

  routingHelp(): string {
    const example = "@Get('/fake')";
    return `Routes live in controllers; a handler is declared with a decorator such as ${example}.`;
  }
}
