import { PAYMENT, Names } from './tokens';
export class Gateway {
  constructor(private readonly grpc: ClientGrpc) {}
  init() {
    const a = this.grpc.getService<PaymentServiceClient>(PAYMENT);
    const b = this.grpc.getService(Names.INVENTORY);
    a.charge({});
  }
}