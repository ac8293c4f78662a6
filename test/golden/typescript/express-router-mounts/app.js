var express = require('express');
var router = require('./bin/router');
var app = express();

app.use(express.json());
app.use('/office', router);
app.use('/api/users', require('./routes/users'));

// A router of this file mounted inside another router of this file: the prefixes compose.
const api = express.Router();
const v1 = express.Router();
v1.get('/orders/:id', (req, res) => res.json({ id: req.params.id }));
api.use('/v1', v1);
app.use('/api', api);

module.exports = app;
