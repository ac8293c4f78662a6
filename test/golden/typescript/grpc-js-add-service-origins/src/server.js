const grpc = require('grpc');
const shop = grpc.load('demo.proto').hipstershop;
const client = new shop.CurrencyService(`localhost:7000`, grpc.credentials.createInsecure());
class Server {
  constructor() {
    this.proto = grpc.load('demo.proto').hipstershop;
    this.packages = { shop: build() };
  }
  listen(server) {
    server.addService(this.proto.CartService.service, { getCart: this.getCart });
    server.addService(this.packages.shop.hipstershop.AdService.service, {});
    server.addService(make().shop.EmailService.service, {});
  }
  getCart(call, callback) {}
}