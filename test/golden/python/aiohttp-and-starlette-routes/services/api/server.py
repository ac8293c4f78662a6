from aiohttp import web
from starlette.applications import Starlette
from starlette.routing import Route

routes = web.RouteTableDef()


@routes.get("/orders/{order_id}")
async def get_order(request):
    return web.json_response({})


async def create_order(request):
    return web.json_response({})


async def health(request):
    return web.Response(text="ok")


def make_app():
    app = web.Application()
    app.add_routes(routes)
    app.add_routes([web.post("/orders", create_order), web.route("DELETE", "/orders/{order_id}", create_order)])
    app.router.add_get("/healthz", health)
    app.router.add_route("PUT", "/orders/{order_id}", create_order)
    return app


async def homepage(request):
    return None


starlette_app = Starlette(
    routes=[
        Route("/", homepage),
        Route("/users/{user_id:int}", homepage, methods=["GET", "PATCH"]),
    ]
)
