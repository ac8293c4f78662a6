import com.rabbitmq.client.amqp.Connection
import com.rabbitmq.client.amqp.Management

const val EXCHANGE = "orders"

fun declare(management: Management) {
    management.exchange().name(EXCHANGE).type(Management.ExchangeType.DIRECT).declare()
    management.queue("orders.audit").quorum().queue().declare()
    management.binding().sourceExchange(EXCHANGE).destinationQueue("orders.audit").key("created").bind()
}

fun publish(connection: Connection) {
    connection.publisherBuilder().exchange(EXCHANGE).key("created").build()
}

fun consume(connection: Connection) {
    connection.consumerBuilder()
        .queue("orders.audit")
        .messageHandler { ctx, _ -> ctx.accept() }
        .build()
}

fun serve(connection: Connection) {
    connection.responderBuilder().requestQueue("rpc_queue").handler { ctx, _ -> ctx.message(ByteArray(0)) }.build()
}

fun temporary(connection: Connection, management: Management) {
    // A server-named queue bound to the exchange: a consumer of the exchange, with no queue name.
    val info = management.queue().exclusive(true).autoDelete(true).declare()
    val queueName = info.name()
    management.binding().sourceExchange(EXCHANGE).destinationQueue(queueName).key("cancelled").bind()
    connection.consumerBuilder().queue(queueName).build()
}

fun replies(connection: Connection, management: Management) {
    // A server-named queue bound to nothing: an RPC reply queue, no fact.
    val replyQueue = management.queue().exclusive(true).declare().name()
    connection.consumerBuilder().queue(replyQueue).build()
}
