import tornado.ioloop
import tornado.web
from handlers import HealthHandler


class GetVoucherHandler(tornado.web.RequestHandler):
    def post(self, *args, **kwargs):
        self.write("{}")

    def get(self, order_id):
        self.write(order_id)

    def helper(self):
        pass


def make_app():
    return tornado.web.Application([
        (r"/getVoucher", GetVoucherHandler),
        (r"/vouchers/(?P<order_id>[0-9]+)", GetVoucherHandler),
        tornado.web.url(r"/health/?", HealthHandler),
    ])
