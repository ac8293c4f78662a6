import { Module } from '@nestjs/common';
import { ClientsModule, Transport } from '@nestjs/microservices';
import { join } from 'node:path';

import { PAYMENT_PACKAGE } from './grpc/payment.client';
import { kafkaProducerProvider } from './kafka.provider';
import { CheckoutGrpcController } from './orders/checkout.grpc-controller';
import { OrderService } from './orders/order.service';
import { OrdersController } from './orders/orders.controller';
import { dbPoolProvider, OutboxService } from './outbox/outbox.service';
import { DailyStats } from './stats/daily-stats';

const PROTO_DIR = process.env.PROTO_DIR ?? join(__dirname, '../../../proto');

@Module({
  imports: [
    ClientsModule.register([
      {
        name: PAYMENT_PACKAGE,
        transport: Transport.GRPC,
        options: {
          package: 'shop.payment.v1',
          protoPath: join(PROTO_DIR, 'payment.proto'),
          url: process.env.PAYMENT_GRPC_ADDR ?? 'payment:50051',
        },
      },
    ]),
  ],
  controllers: [OrdersController, CheckoutGrpcController],
  providers: [OrderService, OutboxService, DailyStats, kafkaProducerProvider, dbPoolProvider],
})
export class AppModule {}
