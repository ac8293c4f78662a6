<?php
class Notifier
{
    public function publish($message, $key) {}
    public function consume($queue) {}
}

$notifier = new Notifier();
$notifier->publish('x', 'orders');
$notifier->consume('orders');
$queue = new SplQueue();
$queue->enqueue('orders');
