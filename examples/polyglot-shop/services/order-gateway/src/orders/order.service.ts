import { Inject, Injectable, Logger, NotFoundException, OnModuleInit, UnprocessableEntityException } from '@nestjs/common';
import { ClientGrpc } from '@nestjs/microservices';
import { Producer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { filter, lastValueFrom, Observable, Subject } from 'rxjs';

import { PAYMENT_PACKAGE, PaymentServiceClient, PaymentStatus } from '../grpc/payment.client';
import { KAFKA_PRODUCER } from '../kafka.provider';
import { OutboxService } from '../outbox/outbox.service';
import { CreateOrderInput, Order, orderTotal, OrderStatus, ShipmentView } from './order.model';

export interface StatusChange {
  orderId: string;
  status: OrderStatus;
  changedAt: Date;
}

@Injectable()
export class OrderService implements OnModuleInit {
  private readonly logger = new Logger(OrderService.name);
  private readonly orders = new Map<string, Order>();
  private readonly statusChanges = new Subject<StatusChange>();
  private paymentService!: PaymentServiceClient;

  constructor(
    @Inject(PAYMENT_PACKAGE) private readonly paymentClient: ClientGrpc,
    @Inject(KAFKA_PRODUCER) private readonly producer: Producer,
    private readonly outbox: OutboxService,
  ) {}

  onModuleInit(): void {
    this.paymentService = this.paymentClient.getService<PaymentServiceClient>('PaymentService');
  }

  async createOrder(input: CreateOrderInput): Promise<Order> {
    const id = randomUUID();
    const total = orderTotal(input.items);
    const request = { orderId: id, amount: total, paymentToken: input.paymentToken };
    const payment = await lastValueFrom(this.paymentService.processPayment(request));
    if (payment.status !== PaymentStatus.AUTHORIZED) {
      throw new UnprocessableEntityException(payment.declineReason || 'payment declined');
    }

    const order: Order = {
      ...input,
      id,
      total,
      status: OrderStatus.Paid,
      paymentId: payment.paymentId,
      createdAt: new Date(),
    };
    this.orders.set(id, order);
    const event = { orderId: id, customerId: order.customerId, paymentId: order.paymentId, items: order.items, total };
    await this.producer.send({ topic: 'orders.created', messages: [{ key: id, value: JSON.stringify(event) }] });
    this.emitStatus(order);
    return order;
  }

  async cancelOrder(id: string, reason: string): Promise<Order> {
    const order = this.getOrder(id);
    order.status = OrderStatus.Cancelled;
    await this.outbox.publishEvent('orders.cancelled', { orderId: id, customerId: order.customerId, reason });
    this.emitStatus(order);
    this.logger.log(`order ${id} cancelled: ${reason}`);
    return order;
  }

  getOrder(id: string): Order {
    const order = this.orders.get(id);
    if (!order) {
      throw new NotFoundException(`order ${id} not found`);
    }
    return order;
  }

  countCreatedSince(since: Date): number {
    return [...this.orders.values()].filter((order) => order.createdAt >= since).length;
  }

  watch(id: string): Observable<StatusChange> {
    return this.statusChanges.pipe(filter((change) => change.orderId === id));
  }

  async trackShipment(id: string): Promise<ShipmentView | undefined> {
    const response = await fetch(`${process.env.SHIPPING_URL}/shipments/${id}`);
    if (response.status === 404) {
      return undefined;
    }
    return (await response.json()) as ShipmentView;
  }

  private emitStatus(order: Order): void {
    this.statusChanges.next({ orderId: order.id, status: order.status, changedAt: new Date() });
  }
}
