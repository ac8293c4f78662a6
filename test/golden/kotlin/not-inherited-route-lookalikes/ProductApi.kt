package com.shop.catalog

import org.springframework.web.bind.annotation.RestController

/** Implements an interface (no constructor call): no superclass to inherit from. */
@RestController
class ProductApi : ProductOperations

/** Only extends Any. */
@RestController
class PingController : Any()
