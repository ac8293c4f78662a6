import axios from 'axios';

const config = {
  ordersUrl: process.env.ORDERS_URL ?? 'http://localhost:8080',
  catalog: { url: process.env['CATALOG_URL'] },
};
const { STOCK_URL = 'http://stock:9000' } = process.env;
const API_PREFIX = '/api' + '/v2';

export class ReviewsClient {
  static readonly BASE = 'http://reviews:7070';

  private readonly root: string;

  constructor(private readonly tenant: string) {
    this.root = `${ReviewsClient.BASE}${API_PREFIX}/tenants/`;
  }

  list() {
    return axios.get(this.root + this.tenant + '/reviews');
  }
}

export const order = (id: string) => axios.get(`${config.ordersUrl}${API_PREFIX}/orders/${id}`);
export const product = (id: string) => axios.get(config.catalog.url + '/products/' + id);
export const stock = (sku: string) => axios.post(new URL(`stock/${sku}`, STOCK_URL).toString());
export const remote = (url: string) => axios.delete(url);
