import os

import redis

r = redis.Redis(host="localhost")
CHANNEL = os.environ.get("NEWS_CHANNEL", "news")


def announce(message):
    r.publish(CHANNEL, message)
    r.xadd("audit-stream", {"m": message})


def listen():
    p = r.pubsub()
    p.subscribe("news", "alerts")
    p.psubscribe("sport.*")
    r.xread({"audit-stream": "$"}, block=0)
    r.xreadgroup("group", "me", {"payments": ">"})
