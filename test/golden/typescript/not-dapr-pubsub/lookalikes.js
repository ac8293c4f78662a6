// No Dapr import: a `pubsub` member of something else, and strings that only look like Dapr's.
const bus = require('./bus');

async function notify() {
  await bus.pubsub.publish('pubsub', 'orders', {});
  await bus.pubsub.subscribe('pubsub', 'orders', () => {});
}

module.exports = { notify, route: '/dapr/subscribe', url: '/v1.0/publish/pubsub/orders' };
