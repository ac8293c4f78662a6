package com.shop.common

import org.springframework.web.bind.annotation.DeleteMapping
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable

/** Subclasses serve these mappings under their own @RequestMapping. */
abstract class CrudController<T> {
    @GetMapping("/{id}")
    fun byId(@PathVariable id: Long): T = load(id)

    @DeleteMapping("/{id}")
    fun delete(@PathVariable id: Long) {}

    protected abstract fun load(id: Long): T
}
