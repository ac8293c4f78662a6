package shop.notification

import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController

data class NotificationView(val orderId: String, val subject: String, val sentAt: String)

@RestController
@RequestMapping("/notifications")
class NotificationController(private val notifications: NotificationLog) {

    @GetMapping("/{userId}")
    fun forUser(
        @PathVariable userId: String,
        @RequestParam(defaultValue = "20") limit: Int,
    ): List<NotificationView> =
        notifications.forUser(userId)
            .takeLast(limit.coerceIn(1, 100))
            .map { NotificationView(it.orderId, it.subject, it.sentAt.toString()) }
}
