<?php
$channel = new AMQPChannel(new AMQPConnection());
$exchange = new AMQPExchange($channel);
$exchange->setName('logs');
$exchange->publish('message', '');

$queue = new AMQPQueue($channel);
$queue->declareQueue();
$queue->bind('logs');
$queue->consume(function ($envelope, $q) {});

$direct = new AMQPExchange($channel);
$direct->publish('task', 'task_queue');
