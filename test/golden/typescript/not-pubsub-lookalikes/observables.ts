import { connect } from 'nats';
import { orders$ } from './streams';

// Observables share `subscribe`; given a callback, it is not a subject.
export async function watch(): Promise<void> {
  await connect({ servers: 'nats://localhost:4222' });
  orders$.subscribe((order: unknown) => console.log(order));
  orders$.subscribe({ next: (order: unknown) => console.log(order) });
}
