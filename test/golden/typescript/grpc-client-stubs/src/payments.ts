import { createChannel, createClient } from 'nice-grpc';
import { PaymentServiceDefinition } from './gen/payment';
const channel = createChannel('payment:50051');
export const payments = createClient(PaymentServiceDefinition, channel);
export const charge = () => payments.processPayment({});