import { save as persist, audit } from './store';
import * as metrics from './metrics';
import Logger from './logger';
import { OrderRepo } from './repo';
import type { Notifier } from './notify';

export interface Pricing extends Base, shared.Named<number> {
  price(sku: string): number;
  readonly currency: string;
}

export class OrderService extends BaseService implements Pricing {
  private cache: Map<string, number> = new Map();
  private readonly log = new Logger('orders');

  constructor(
    private readonly repo: OrderRepo,
    notifier: Notifier,
  ) {
    super(notifier);
    this.notifier = notifier;
  }

  price(sku: string): number {
    return this.lookup(sku) ?? metrics.fallback(sku);
  }

  async place(order: Order, pricing: Pricing | undefined): Promise<void> {
    const total = pricing?.price(order.sku);
    this.repo.save(order);
    this.notifier.send(order.id);
    this.log.info('placed');
    persist(order);
    audit(total);
    const draft = new Draft(order);
    draft.validate();
    new Draft(order).submit().then((r) => r.close());
    order.items.forEach((item) => this.check(item));
    super.place(order);
    console.log('done');
  }

  private lookup(sku: string): number | undefined {
    return this.cache.get(sku);
  }
}

const service = new OrderService(new OrderRepo(), notifierOf());
service.place(current(), undefined);
setTimeout(() => service.price('a'), 10);
