function loadOrders(accountId) {
  $.ajax({
    type: 'post',
    url: '/api/v1/orderservice/order/refresh',
    contentType: 'application/json',
    data: JSON.stringify({ accountId: accountId }),
  });
  $.get('/api/v1/orderservice/order/' + accountId);
  jQuery.getJSON('/api/v1/stationservice/stations');
  $.ajax({ url: '/api/v1/contactservice/contacts/account/' + accountId });
}
