import superagent from 'superagent';

const request = require('superagent');
const MAIL = process.env.MAIL_URL;

export async function send(id) {
  await superagent.post(`${MAIL}/messages`).send({ id });
  await superagent.get(`${MAIL}/messages/${id}`);
  await superagent('DELETE', `${MAIL}/messages/${id}`);
  await request.del(`${MAIL}/drafts/${id}`);
}
