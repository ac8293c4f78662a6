import { credentials } from '@grpc/grpc-js';
import { PaymentServiceClient } from '../gen/payment';
it('charges', () => {
  const stub = new PaymentServiceClient('localhost:50051', credentials.createInsecure());
  stub.processPayment({}, () => undefined);
});