import axios from 'axios';

const DAPR_HOST = process.env.DAPR_HOST || 'http://localhost';
const DAPR_HTTP_PORT = process.env.DAPR_HTTP_PORT || '3500';

async function main() {
  let axiosConfig = {
    headers: {
      'dapr-app-id': 'order-processor',
    },
  };

  for (let i = 1; i <= 20; i++) {
    const order = { orderId: i };
    const res = await axios.post(`${DAPR_HOST}:${DAPR_HTTP_PORT}/orders`, order, axiosConfig);
    console.log(res.config.data);
  }
}

main();
