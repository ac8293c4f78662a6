import { Observable } from 'rxjs';

/** Injection token of the gRPC client registered for `shop.payment.v1`. */
export const PAYMENT_PACKAGE = 'PAYMENT_PACKAGE';

export interface Money {
  currencyCode: string;
  units: number;
  nanos: number;
}

export enum PaymentStatus {
  UNSPECIFIED = 0,
  AUTHORIZED = 1,
  DECLINED = 2,
  SETTLED = 3,
  REFUNDED = 4,
}

export interface ProcessPaymentRequest {
  orderId: string;
  amount: Money;
  paymentToken: string;
}

export interface ProcessPaymentResponse {
  paymentId: string;
  status: PaymentStatus;
  declineReason: string;
}

export interface RefundPaymentRequest {
  paymentId: string;
  reason: string;
}

export interface RefundPaymentResponse {
  paymentId: string;
  status: PaymentStatus;
}

/** The client side of `shop.payment.v1.PaymentService`, as `ClientGrpc.getService` returns it. */
export interface PaymentServiceClient {
  processPayment(request: ProcessPaymentRequest): Observable<ProcessPaymentResponse>;
  refundPayment(request: RefundPaymentRequest): Observable<RefundPaymentResponse>;
}
