// No broker module: a store with the same method names.
const store = require('./store');
const emitter = new (require('events'))();

store.subscribe(() => console.log(store.getState()));
emitter.publish?.('orders', {});
store.xadd('stream', '*', 'a', 'b');
const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders';
module.exports = { QUEUE_URL, subject: 'orders.created' };
