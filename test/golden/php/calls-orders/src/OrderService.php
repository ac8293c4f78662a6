<?php

namespace Shop\Orders;

use Shop\Repo\OrderRepo;
use Shop\Util\{Clock, Ids as IdGen};
use function Shop\Util\format_total as total;
use Shop\Events\Publisher;

interface Placer extends Service
{
    public function place(array $lines): Order;
}

abstract class BaseService
{
    protected function audit(string $what): void {}
}

final class OrderService extends BaseService implements Placer, \Countable
{
    use LogsCalls;

    private OrderRepo $repo;

    public function __construct(private Clock $clock, private ?Publisher $events = null)
    {
        $this->repo = new OrderRepo();
    }

    public function place(array $lines): Order
    {
        $order = new Order(IdGen::next(), $this->clock->now());
        $this->validate($order);
        self::check($lines);
        static::check($lines);
        parent::audit('place');
        $this->repo->save($order);
        $this->events?->publish($order);
        $order->lines()->add($lines);
        $local = new Receipt();
        $local->render(total($order));
        array_map(fn (Line $l) => $l->price(), $lines);
        $notify = function () use ($order) {
            $this->notifyCustomer($order);
        };
        return $order;
    }

    public function reload(OrderRepo $other, $untyped): void
    {
        $other->find(1);
        $untyped->find(2);
        OrderRepo::cached();
        \Shop\Repo\Cache::flush();
    }

    private function validate(Order $order): void {}
    private static function check(array $lines): void {}
    private function notifyCustomer(Order $order): void {}
    public function count(): int { return 0; }
}

function bootstrap(): OrderService
{
    return new OrderService(new Clock());
}

bootstrap()->place([]);
