<?php
use PhpAmqpLib\Connection\AMQPStreamConnection;
use PhpAmqpLib\Message\AMQPMessage;

$connection = new AMQPStreamConnection('localhost', 5672, 'guest', 'guest');
$channel = $connection->channel();
$channel->exchange_declare('orders', 'topic', false, true, false);
$channel->basic_publish(new AMQPMessage('x'), 'orders', 'order.created');
$channel->basic_publish(new AMQPMessage('y'), '', 'audit');

$channel->queue_declare('billing', false, true, false, false);
$channel->queue_bind('billing', 'orders', 'order.*');
$channel->basic_consume('billing', '', false, false, false, false, function ($msg) {});

list($replies, ,) = $channel->queue_declare('', false, false, true, false);
$channel->basic_consume($replies, '', false, true, false, false, function ($msg) {});
