const { got } = require('./test-helpers');
const seen = new Map();

function check(res) {
  got.get('/items');
  seen.get('/stock');
  return res.got('/prices');
}

module.exports = { check };
