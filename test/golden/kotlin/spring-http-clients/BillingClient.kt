
class BillingClient(
    private val restClient: RestClient,
    @Value("\${BILLING_URL}") private val billingUrl: String,
) {
    fun invoice(orderId: String) =
        restClient.get().uri("$billingUrl/invoices/{orderId}", orderId).retrieve().body(String::class.java)

    fun cancel(orderId: String) {
        restClient.method(HttpMethod.DELETE).uri("${billingUrl}/invoices/$orderId").retrieve()
    }
}