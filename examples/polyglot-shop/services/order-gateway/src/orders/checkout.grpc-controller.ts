import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { map, Observable } from 'rxjs';

import { Address, LineItem, Order, OrderStatus } from './order.model';
import { OrderService } from './order.service';

interface CreateOrderRequest {
  customerId: string;
  items: LineItem[];
  shippingAddress: Address;
  paymentToken: string;
}

interface CreateOrderResponse {
  orderId: string;
  status: OrderStatus;
}

interface GetOrderRequest {
  orderId: string;
}

interface OrderMessage extends Omit<Order, 'id' | 'paymentId' | 'createdAt'> {
  orderId: string;
}

interface WatchOrderStatusRequest {
  orderId: string;
}

interface OrderStatusUpdate {
  orderId: string;
  status: OrderStatus;
  changedAtUnixMs: number;
}

/** `shop.checkout.v1.CheckoutService`, served over gRPC next to the HTTP API. */
@Controller()
export class CheckoutGrpcController {
  constructor(private readonly orders: OrderService) {}

  @GrpcMethod('CheckoutService', 'CreateOrder')
  async createOrder(request: CreateOrderRequest): Promise<CreateOrderResponse> {
    const order = await this.orders.createOrder(request);
    return { orderId: order.id, status: order.status };
  }

  @GrpcMethod('CheckoutService', 'GetOrder')
  getOrder(request: GetOrderRequest): OrderMessage {
    const { id, customerId, items, shippingAddress, total, status } = this.orders.getOrder(request.orderId);
    return { orderId: id, customerId, items, shippingAddress, total, status };
  }

  @GrpcMethod('CheckoutService', 'WatchOrderStatus')
  watchOrderStatus(request: WatchOrderStatusRequest): Observable<OrderStatusUpdate> {
    return this.orders.watch(request.orderId).pipe(
      map((change) => ({ orderId: change.orderId, status: change.status, changedAtUnixMs: change.changedAt.getTime() })),
    );
  }
}
