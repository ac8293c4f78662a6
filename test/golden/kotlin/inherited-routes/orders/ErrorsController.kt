package com.shop.orders

import org.springframework.boot.web.servlet.error.AbstractErrorController
import org.springframework.web.bind.annotation.RestController

/** Extends a framework class: nothing to inherit from the workspace. */
@RestController
class ErrorsController : AbstractErrorController(null)
