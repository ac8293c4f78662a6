import logging
import shop.metrics as metrics
import shop.audit
from typing import Optional, Protocol
from shop.store import save as persist, audit
from shop import notify
from .repo import OrderRepo

log = logging.getLogger(__name__)
cache = OrderRepo()


class Pricing(Protocol):
    def price(self, sku: str) -> float: ...


class BaseService:
    def place(self, order):
        pass


class OrderService(BaseService, Pricing):
    notifier: "notify.Notifier"

    def __init__(self, repo: OrderRepo, pricing: Optional[Pricing] = None):
        self.repo = repo
        self.drafts = Drafts()
        self.pricing = pricing

    def price(self, sku: str) -> float:
        return self.lookup(sku) or metrics.fallback(sku)

    def place(self, order, callback):
        total = self.pricing.price(order.sku)
        self.repo.save(order)
        self.notifier.send(order.id)
        self.drafts.open(order).submit()
        persist(order)
        audit(total)
        notify.email(order)
        shop.audit.record(order)
        draft = Draft(order)
        draft.validate()
        Draft(order).close()
        callback(order)
        print(len(order.items))

        def check(item):
            return self.lookup(item)

        sorted(order.items, key=lambda item: item.weight())
        super().place(order)
        log.info("placed %s", total)

    @classmethod
    def create(cls):
        return cls.build(OrderRepo.default())


class Drafts:
    def open(self, order):
        return Draft(order)


class Draft:
    def __init__(self, order):
        self.order = order


service = OrderService(cache)
service.place(current(), None)
