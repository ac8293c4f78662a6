
class ShippingClient(builder: WebClient.Builder, @Value("\${shipping.url}") shippingUrl: String) {
    private val webClient = builder.baseUrl(shippingUrl).build()
    private val carrier = WebClient.create("http://carrier:8080")

    fun track(parcelId: String) = webClient.get().uri("/parcels/{id}", parcelId).retrieve().bodyToMono<String>()

    fun label(parcelId: String) {
        webClient.post().uri("/parcels/$parcelId/label").retrieve()
    }

    fun pickup() = carrier.put().uri("/pickups").retrieve()

    fun quote() = WebClient.create(System.getenv("RATES_URL")).post().uri("/quotes?zone=eu").retrieve()

    fun search() = webClient.get().uri { it.path("/parcels").build() }.retrieve()
}