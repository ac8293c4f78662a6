import Fastify from 'fastify';
import Router from '@koa/router';
import inventory from './routes/inventory';
import { adminRoutes } from './routes/admin';

const fastify = Fastify();
fastify.register(inventory, { prefix: '/inventory' });

const root = new Router();
const nested = new Router();
nested.get('/stats', (ctx) => {
  ctx.body = {};
});
root.use('/admin', adminRoutes.routes(), nested.routes());
