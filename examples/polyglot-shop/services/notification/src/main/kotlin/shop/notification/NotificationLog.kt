package shop.notification

import java.time.Instant
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CopyOnWriteArrayList
import org.springframework.mail.SimpleMailMessage
import org.springframework.mail.javamail.JavaMailSender
import org.springframework.stereotype.Component

data class Notification(
    val userId: String,
    val orderId: String,
    val subject: String,
    val body: String,
    val sentAt: Instant = Instant.now(),
)

/** Sends notifications and remembers them per user, newest last. */
@Component
class NotificationLog(private val mailSender: JavaMailSender) {

    private val byUser = ConcurrentHashMap<String, CopyOnWriteArrayList<Notification>>()

    fun send(notification: Notification) {
        val message = SimpleMailMessage().apply {
            setTo("${notification.userId}@customers.shop.example")
            subject = notification.subject
            text = notification.body
        }
        mailSender.send(message)
        byUser.computeIfAbsent(notification.userId) { CopyOnWriteArrayList() }.add(notification)
    }

    fun forUser(userId: String): List<Notification> = byUser[userId].orEmpty().toList()
}
