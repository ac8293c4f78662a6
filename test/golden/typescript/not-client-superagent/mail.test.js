import request from 'supertest';
import { app } from './app';

export async function probe(agent) {
  await request(app).get('/messages');
  await agent.get('/messages/1');
}
