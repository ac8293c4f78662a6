package com.shop.servers

import io.micronaut.http.annotation.Controller
import io.micronaut.http.annotation.Delete
import io.micronaut.http.annotation.Get
import org.springframework.data.repository.CrudRepository
import org.springframework.data.rest.core.annotation.RepositoryRestResource

@Controller("/wishlists")
class WishlistController {
    @Get("/{id}")
    fun show(id: String): String = id

    @Delete("/{id}")
    fun remove(id: String) {}
}

@RepositoryRestResource
interface CompanyRepository : CrudRepository<Company, Long>
