const $ = require('cheerio').load('<p></p>');

function render(store) {
  $('#orders').get(0);
  $.get('/api/v1/not-jquery');
  store.ajax({ url: '/api/v1/orders' });
}
