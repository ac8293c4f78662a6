
class Templates(private val restTemplate: RestTemplate) {
    companion object {
        const val BILLING = "http://billing:8080"
    }
    private val ledger = System.getenv("LEDGER_URL") ?: "http://localhost:9090"

    fun calls(id: String) {
        val base = "$BILLING/v1"
        restTemplate.getForObject("$base/invoices/{id}", String::class.java, id)
        restTemplate.getForObject("$ledger/entries", String::class.java)
        restTemplate.getForObject("${'$'}{billing.url}/refunds", String::class.java)
    }
}