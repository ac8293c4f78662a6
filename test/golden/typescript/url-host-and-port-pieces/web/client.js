import axios from 'axios';

const HOST = process.env.ORDERS_HOST;

export async function orders(host, port, id) {
  await axios.get(`${HOST}:${process.env.ORDERS_PORT}/orders/${id}`);
  await axios.get(`${HOST}:8080/orders`);
  await axios.get(`${host}:${port}/orders/${id}/lines`);
}
