const { Router } = require('express');
const users = Router();
users.get('/:id', (req, res) => res.json({}));
module.exports = users;
