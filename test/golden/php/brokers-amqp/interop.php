<?php
use Enqueue\AmqpLib\AmqpConnectionFactory;
use Interop\Amqp\Impl\AmqpBind;

$context = (new AmqpConnectionFactory('amqp:'))->createContext();
$topic = $context->createTopic('direct_logs');
$queue = $context->createQueue('errors');
$context->bind(new AmqpBind($topic, $queue, 'error'));
$context->createProducer()->send($topic, $context->createMessage('x'));
$context->createProducer()->send($context->createQueue('hello'), $context->createMessage('y'));
$consumer = $context->createConsumer($queue);
