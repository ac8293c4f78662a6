const { publish } = require('./bus');
const db = require('./db');

class Cart extends Model {
  add(item) {
    this.items.push(item);
    db.insert(item);
    publish('cart', item);
    helper(item).apply();
  }
}

function helper(item) {
  const cart = new Cart();
  return cart.add(item);
}

const api = {
  load() {
    return this.fetchAll();
  },
};

module.exports = { Cart, api };
