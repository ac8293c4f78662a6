const got = require('got');

const inventory = got.extend({ prefixUrl: process.env.INVENTORY_URL });
const PRICING = 'http://pricing:7000';

async function sync(sku) {
  await inventory.get(`items/${sku}`);
  await got(`${PRICING}/prices`, { method: 'POST' });
  await got.post(`${process.env.PRICING_URL}/quotes`);
  await got({ url: `${PRICING}/rates`, method: 'PATCH' });
  await inventory('stock', { method: 'DELETE' });
  got.stream(`${PRICING}/export`);
}

module.exports = { sync };
