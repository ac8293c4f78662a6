import os

from flask import Flask
from fastapi import APIRouter

app = Flask(__name__)
router = APIRouter()

cron_binding_name = 'cron'
API_PREFIX = os.getenv('API_PREFIX', '/api/v1')


# Triggered by a Dapr input binding named like the route.
@app.route('/' + cron_binding_name, methods=['POST'])
def process_batch():
    return 'ok'


@router.get(f"{API_PREFIX}/users/{{user_id}}")
def read_user(user_id: int):
    return {}


# The path is an unknown expression: no route.
@app.route(os.environ['ROUTE'], methods=['POST'])
def dynamic():
    return 'ok'
