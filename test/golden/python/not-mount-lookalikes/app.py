from flask import Flask, Blueprint
from .views import bp
from myframework import Application

app = Flask(__name__)
local = Blueprint("local", __name__)
PREFIX = compute_prefix()

app.register_blueprint(bp)
app.register_blueprint(local, url_prefix="/local")
app.include_router(bp, prefix=PREFIX)
app.mount("static", bp)
Application([(r"/x", Handler)])
# app.register_blueprint(bp, url_prefix="/commented")
text = "app.include_router(bp, prefix='/in-a-string')"
