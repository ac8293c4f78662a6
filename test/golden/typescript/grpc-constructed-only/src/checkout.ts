import { promisify } from 'node:util';
import { credentials } from '@grpc/grpc-js';
import {
  CartServiceClient,
  CurrencyServiceClient,
  EmailServiceClient,
  PaymentServiceClient,
  ShippingServiceClient,
} from './gen/demo';

const creds = credentials.createInsecure();
// Built and never used: not a call.
const email = new EmailServiceClient(process.env.EMAIL_ADDR ?? '', creds);
const cart = new CartServiceClient(process.env.CART_ADDR ?? '', creds);
const getCart = promisify(cart.getCart).bind(cart);
export const shipping = new ShippingServiceClient(process.env.SHIPPING_ADDR ?? '', creds);

export class Checkout {
  private readonly payment = new PaymentServiceClient('payment:50051', creds);

  private readonly currency: CurrencyServiceClient;

  constructor() {
    this.currency = new CurrencyServiceClient('currency:7000', creds);
  }

  async place(userId: string): Promise<void> {
    await getCart({ userId });
    const convert = this.currency.convert.bind(this.currency);
    convert({});
  }
}

export function paymentClient(): PaymentServiceClient {
  return new PaymentServiceClient('payment:50051', creds);
}
