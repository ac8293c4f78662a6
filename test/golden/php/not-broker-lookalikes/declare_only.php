<?php
use PhpAmqpLib\Connection\AMQPStreamConnection;

$channel = (new AMQPStreamConnection('localhost', 5672, 'guest', 'guest'))->channel();
$channel->queue_declare('never_used', false, true, false, false);
$channel->exchange_declare('also_unused', 'fanout', false, false, false);
