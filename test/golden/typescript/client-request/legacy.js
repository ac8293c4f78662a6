const request = require('request');
const rp = require('request-promise');

const api = request.defaults({ baseUrl: process.env.LEGACY_URL });

function legacy(id, done) {
  request('http://legacy:8000/status', (err, res) => done(err, res));
  request('http://legacy:8000/ping', done);
  request.post({ url: `http://legacy:8000/jobs/${id}`, json: true }, done);
  rp({ uri: 'http://legacy:8000/jobs', method: 'PUT' });
  api.get('/things', done);
}

module.exports = { legacy };
