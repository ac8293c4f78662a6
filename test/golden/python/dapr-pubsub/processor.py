from dapr.ext.fastapi import DaprApp
from fastapi import FastAPI
from flask import Flask, jsonify

app = FastAPI()
dapr_app = DaprApp(app)
web = Flask(__name__)


@dapr_app.subscribe(pubsub="orderpubsub", topic="orders")
def orders_subscriber(event: dict):
    return {"success": True}


@web.route("/dapr/subscribe", methods=["GET"])
def subscribe():
    return jsonify([{"pubsubname": "orderpubsub", "topic": "refunds", "route": "refunds"}])
