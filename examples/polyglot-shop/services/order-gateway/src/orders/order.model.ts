import { Money } from '../grpc/payment.client';

export enum OrderStatus {
  PendingPayment = 1,
  Paid = 2,
  StockReserved = 3,
  Shipped = 4,
  Cancelled = 5,
}

export interface LineItem {
  sku: string;
  quantity: number;
  unitPrice: Money;
}

export interface Address {
  recipient: string;
  street: string;
  city: string;
  postalCode: string;
  countryCode: string;
}

export interface CreateOrderInput {
  customerId: string;
  items: LineItem[];
  shippingAddress: Address;
  paymentToken: string;
}

export interface Order {
  id: string;
  customerId: string;
  items: LineItem[];
  shippingAddress: Address;
  total: Money;
  status: OrderStatus;
  paymentId: string;
  createdAt: Date;
}

export interface ShipmentView {
  orderId: string;
  carrier: string;
  trackingNumber: string;
  status: string;
}

export function orderTotal(items: LineItem[]): Money {
  const currencyCode = items[0]?.unitPrice.currencyCode ?? 'EUR';
  const nanos = items.reduce((sum, item) => sum + item.unitPrice.nanos * item.quantity, 0);
  const units = items.reduce((sum, item) => sum + item.unitPrice.units * item.quantity, 0);
  return { currencyCode, units: units + Math.floor(nanos / 1e9), nanos: nanos % 1e9 };
}
