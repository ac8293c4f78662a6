package com.shop.catalog

import com.shop.common.CrudService
import org.springframework.stereotype.Service

/** A service extending a base class serves no routes. */
@Service
class ProductService : CrudService<Product>()
