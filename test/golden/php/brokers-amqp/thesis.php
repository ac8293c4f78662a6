<?php
use Thesis\Amqp\Client;
use Thesis\Amqp\Message;

$channel = (new Client())->channel();
$channel->publish(new Message('hi'), exchange: 'logs');
$queue = $channel->queueDeclare(exclusive: true);
$channel->queueBind(queue: $queue->name, exchange: 'logs');
$channel->consume(static function () {}, queue: $queue->name);
$channel->consume(static function () {}, queue: 'hello');
