from dapr.ext.grpc import App, InvokeMethodRequest, InvokeMethodResponse

app = App()


@app.method(name='my-method')
def my_method(request: InvokeMethodRequest) -> InvokeMethodResponse:
    return InvokeMethodResponse(b'INVOKE_RECEIVED', 'text/plain; charset=UTF-8')


@app.method('orders')
def orders(request: InvokeMethodRequest) -> InvokeMethodResponse:
    return InvokeMethodResponse(request.data, 'application/json')


@app.subscribe(pubsub_name='pubsub', topic='TOPIC_A')
def on_topic(event) -> None:
    print(event.Data(), flush=True)


app.run(50051)
