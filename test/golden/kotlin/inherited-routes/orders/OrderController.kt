package com.shop.orders

import com.shop.common.CrudController
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RestController

/** Serves the base controller's mappings under /orders and /v1/orders, plus its own. */
@RestController
@RequestMapping(["/orders", "/v1/orders"])
class OrderController(private val repository: OrderRepository) : CrudController<Order>(), Auditable {
    override fun load(id: Long): Order = repository.find(id)

    @GetMapping("/open")
    fun open(): List<Order> = emptyList()
}
