# An `App` with a `method` decorator that is not Dapr's: registering a name on it declares no route.
from plugins import App

app = App()


class Registry:
    def method(self, name):
        return lambda fn: fn


registry = Registry()


@app.method(name='my-method')
def my_method(request):
    return request


@registry.method('orders')
def orders(request):
    return request
