import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';

import { CreateOrderInput, Order, ShipmentView } from './order.model';
import { OrderService } from './order.service';

export interface OrderView extends Order {
  shipment?: ShipmentView;
}

@Controller('orders')
export class OrdersController {
  constructor(private readonly orders: OrderService) {}

  @Post()
  create(@Body() input: CreateOrderInput): Promise<Order> {
    return this.orders.createOrder(input);
  }

  @Get(':id')
  async findOne(@Param('id') id: string): Promise<OrderView> {
    const order = this.orders.getOrder(id);
    const shipment = await this.orders.trackShipment(id);
    return { ...order, shipment };
  }

  @Post(':id/cancel')
  @HttpCode(202)
  cancel(@Param('id') id: string, @Body('reason') reason: string): Promise<Order> {
    return this.orders.cancelOrder(id, reason ?? 'customer request');
  }
}
