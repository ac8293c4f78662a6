const amqp = require('amqplib/callback_api');

const EXCHANGE = 'orders';
const KEYS = ['order.placed', 'order.cancelled'];

amqp.connect('amqp://localhost', function (err, conn) {
  conn.createChannel(function (err, ch) {
    ch.assertExchange(EXCHANGE, 'topic', { durable: true });
    ch.assertQueue('shipping', { durable: true }, function (err, q) {
      for (const key of KEYS) ch.bindQueue(q.queue, EXCHANGE, key);
      ch.bindQueue(q.queue, EXCHANGE, 'order.placed');
      ch.consume(q.queue, function (msg) {
        ch.ack(msg);
      });
    });
    ch.assertQueue('', { exclusive: true }, function (err, tmp) {
      ch.bindQueue(tmp.queue, 'notifications', '');
      ch.consume(tmp.queue, function (msg) {});
    });
  });
});
