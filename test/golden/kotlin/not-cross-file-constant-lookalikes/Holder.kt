package shop.internal

object Holder {
    private const val HIDDEN = "hidden-topic"
    const val PARTITIONS = 3
    val RETRIES: Int = 5
    val COMPUTED = System.getenv("TOPIC") ?: "fallback"
    const val DB_PASSWORD = "s3cret"
}

class Instance {
    val instanceTopic = "instance-topic"
}
