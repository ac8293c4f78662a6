var express = require('express');
var router = express.Router();

router.get('/', function (req, res) {
  res.send('welcome');
});
router.post('/addOffice', function (req, res) {
  res.sendStatus(201);
});

module.exports = router;
