from flask import Flask

from .views import bp
from . import api

app = Flask(__name__)
app.register_blueprint(bp, url_prefix="/shop")
app.register_blueprint(api.bp, url_prefix="/api/v1/")
