const express = require('express');

const app = express();
const DAPR_URL = `http://localhost:${process.env.DAPR_HTTP_PORT ?? 3500}/v1.0`;
const PUBSUB = 'pubsub';
const SUBSCRIPTIONS = [
  { pubsubname: PUBSUB, topic: 'invoices', route: '/invoices' },
  { pubsubname: PUBSUB, topic: 'refunds', route: '/refunds' },
];

app.get('/dapr/subscribe', (_req, res) => res.json(SUBSCRIPTIONS));
app.post('/invoices', (req, res) => res.sendStatus(200));

app.post('/checkout', async (req, res) => {
  await fetch(`${DAPR_URL}/publish/${PUBSUB}/orders`, { method: 'POST', body: JSON.stringify(req.body) });
  await fetch(`${DAPR_URL}/publish/${PUBSUB}/${req.body.kind}`, { method: 'POST' });
  res.sendStatus(202);
});

app.listen(3000);

// Not subscriptions or publications: another path answering the same shape, a similar sidecar URL.
app.get('/dapr/config', (_req, res) => res.json([{ pubsubname: 'pubsub', topic: 'not-a-subscription' }]));
fetch('http://localhost:3500/v1.0/publishers/orders');
