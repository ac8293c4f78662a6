package shop.messaging

class Orders {
    companion object {
        const val REFUNDS = "refunds"
    }
}
