import axios from 'axios';

const BASE = process.env.USERS_URL;
const users = axios.create({ baseURL: `${BASE}/api/v1` });
const billing = axios.create({ baseURL: 'http://billing:8080' });

export class AccountsClient {
  private readonly http = axios.create({ baseURL: process.env.ACCOUNTS_URL });

  private readonly prefix: string;

  constructor() {
    this.prefix = '/accounts';
  }

  get(id: string) {
    return this.http.get(`${this.prefix}/${id}`);
  }
}

export const list = () => users.get('/users');
export const create = (user: unknown) => users.post('/users', user);
export const pay = (id: string) => billing({ url: `/invoices/${id}/pay`, method: 'post' });
export const audit = () => axios({ baseURL: 'http://audit:9000', url: '/events', method: 'PUT' });
export const purge = () => axios.request({ url: 'http://audit:9000/events', method: 'DELETE' });
export const exists = (id: string) => axios.head(`http://audit:9000/events/${id}`);
