
class Lookalikes(private val cache: Cache, private val restClient: BillingApi, private val mapper: ObjectMapper) {
    private val requests = RequestBuilder()

    fun run(id: String) {
        cache.get().uri("/not-a-call/{id}", id)
        restClient.get().uri("/typed-not-a-client")
        requests.post().uri("/also-not")
        mapper.getForObject("/not-a-rest-template", String::class.java)
        val restTemplate = AuditLog()
        restTemplate.getForObject("/audit", String::class.java)
        repository.delete("/x")
        get("/not-ktor-either")
        getForObject("/own-method")
    }

    fun getForObject(url: String): String = url
}