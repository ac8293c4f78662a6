const Redis = require('ioredis');

const pub = new Redis(process.env.REDIS_URL);
const sub = new Redis(process.env.REDIS_URL);
const STREAM = 'orders-stream';

sub.subscribe('cart-updated', 'cart-cleared', (err, count) => {});
sub.psubscribe('cart-*');
sub.on('message', (channel, message) => console.log(channel, message));

async function loop() {
  await pub.publish('cart-checked-out', JSON.stringify({ id: 1 }));
  await pub.xadd(STREAM, '*', 'id', '1');
  const res = await pub.xreadgroup('GROUP', 'workers', 'w1', 'COUNT', 10, 'BLOCK', 5000, 'STREAMS', STREAM, 'payments-stream', '>', '>');
  return res;
}

module.exports = { loop };
