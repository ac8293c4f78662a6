package com.shop.orders

import org.springframework.web.bind.annotation.RestController

/** Extends a class of its own package, named without an import; no class prefix: served at the root. */
@RestController
class InvoiceController : BaseInvoices()
