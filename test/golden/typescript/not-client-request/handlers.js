function handle(request, response) {
  const host = request.get('host');
  response.send(host);
}

const cache = new Map();
cache.get('/jobs');

module.exports = { handle };
