"""Calls shaped like route registrations that are not."""
from myweb import Route, web


class Registry:
    def __init__(self):
        self.router = {}

    def wire(self, handler):
        # Not aiohttp: this file does not import it.
        self.router.add_get("/orders", handler)
        web.get("/orders", handler)
        Route("/users", handler)
