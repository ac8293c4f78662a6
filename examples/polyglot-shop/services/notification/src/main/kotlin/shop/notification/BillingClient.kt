package shop.notification

import org.springframework.beans.factory.annotation.Value
import org.springframework.stereotype.Component
import org.springframework.web.client.HttpClientErrorException
import org.springframework.web.client.RestClient

data class InvoiceView(
    val invoiceId: String,
    val orderId: String,
    val currency: String,
    val totalUnits: Long,
)

/** Looks up the invoice of an order so confirmation e-mails can quote it. */
@Component
class BillingClient(
    private val restClient: RestClient,
    @Value("\${BILLING_URL}") private val billingUrl: String,
) {

    /** Billing may not have issued the invoice yet: both react to the same order independently. */
    fun invoiceFor(orderId: String): InvoiceView? =
        try {
            restClient.get().uri("$billingUrl/invoices/{orderId}", orderId).retrieve().body(InvoiceView::class.java)
        } catch (e: HttpClientErrorException.NotFound) {
            null
        }
}
