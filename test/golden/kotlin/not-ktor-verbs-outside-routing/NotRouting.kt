
fun notRouting(cache: Cache) {
    get("/not-a-route") { }
    cache.get("/key") { }
}