package shop.notification

import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.boot.runApplication
import org.springframework.context.annotation.Bean
import org.springframework.web.client.RestClient

/** Notification: tells customers about their orders by e-mail and keeps a per-user history. */
@SpringBootApplication
class NotificationApplication {

    @Bean
    fun restClient(builder: RestClient.Builder): RestClient = builder.build()
}

fun main(args: Array<String>) {
    runApplication<NotificationApplication>(*args)
}
