// No broker client is imported: publish and consume are someone else's methods.
const cache = require('./cache-client');

function refresh(key, value) {
  cache.publish('cache-invalidated', key);
  cache.sendToQueue('refresh', value);
  cache.consume('refresh', () => {});
}

module.exports = { refresh, TOPIC: 'orders.created' };
