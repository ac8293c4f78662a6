const express = require('express');
const app = express();
const i18n = { use() {} };

function audit(req, res, next) {
  next();
}

app.use(express.json());
app.use('/static', express.static('public'));
app.use('/audit', audit);
app.use(require('./routes'));
i18n.use('/locales', require('./locales'));
const prefix = computePrefix();
app.use(prefix, require('./dynamic'));
app.register(require('./plugin'), { logLevel: 'info' });
// app.use('/commented', require('./commented'));
const text = "app.use('/in-a-string', require('./x'))";
