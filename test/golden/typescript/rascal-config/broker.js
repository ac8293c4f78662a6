const Rascal = require('rascal');

const config = {
  vhosts: {
    '/': {
      exchanges: ['payments'],
      queues: ['payment_requests', 'refunds'],
      bindings: ['payments[payment.requested] -> payment_requests'],
      publications: {
        request_payment: { exchange: 'payments', routingKey: 'payment.requested' },
        refund: { queue: 'refunds' },
      },
      subscriptions: {
        payment_requests: { queue: 'payment_requests' },
      },
    },
  },
};

async function main(topicFromCaller) {
  const broker = await Rascal.BrokerAsPromised.create(Rascal.withDefaultConfig(config));
  await broker.publish('request_payment', { amount: 1 });
  await broker.publish('refund', { amount: 1 });
  await broker.publish(topicFromCaller, {});
  const subscription = await broker.subscribe('payment_requests');
  subscription.on('message', (message, content, ackOrNack) => ackOrNack());
  await broker.subscribe('refunds');
}

module.exports = { main };
