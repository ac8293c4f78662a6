
object Urls {
    const val ORDERS = "http://orders:8080/api"
}
class OrdersClient(private val rest: RestTemplate) : Base() {
    private val template = RestTemplate()

    fun calls(id: String, method: HttpMethod) {
        rest.getForObject("${Urls.ORDERS}/orders/{id}", String::class.java, id)
        template.exchange(Urls.ORDERS + "/orders/" + id, HttpMethod.PUT, null, String::class.java)
        rest.postForEntity("http://orders:8080/orders", id, String::class.java)
        restTemplate.delete(System.getenv("ORDERS_URL") + "/orders/{id}", id)
        rest.exchange("/orders", method, null, String::class.java)
    }
}