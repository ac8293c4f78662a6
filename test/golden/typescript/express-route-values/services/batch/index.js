import express from 'express';

const cronBinding = 'cron';
const API = process.env.API_PREFIX || '/api';

const app = express();
// A Dapr input binding is delivered to POST /<binding name>.
app.post('/' + cronBinding, (req, res) => res.sendStatus(200));
app.get(`${API}/jobs/:id`, (req, res) => res.json({}));
// Express 4's `*` and Express 5's `*splat` take everything below the prefix.
app.post('/configuration/configstore/*', (req, res) => res.sendStatus(200));
app.get('/files/*splat', (req, res) => res.sendStatus(200));
// Not resolvable: the binding name comes from a request, so no route is invented.
app.post('/' + req.query.name, (req, res) => res.sendStatus(200));
app.listen(5004);
