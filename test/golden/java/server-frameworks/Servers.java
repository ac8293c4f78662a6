package com.shop.servers;

import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.quarkus.vertx.web.Route;
import io.quarkus.vertx.web.RouteBase;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.rest.core.annotation.RepositoryRestResource;

@Controller("/carts")
class CartController {
    @Get("/{id}")
    String cart(String id) { return id; }

    @Post
    String create() { return ""; }
}

@RouteBase(path = "/greetings")
class Greetings {
    @Route(path = "/hello", methods = Route.HttpMethod.GET)
    String hello() { return "hi"; }

    @Route(methods = Route.HttpMethod.POST)
    String shout() { return "HI"; }
}

@RepositoryRestResource(path = "people")
interface PersonRepository extends JpaRepository<Person, Long> {}

@RepositoryRestResource
interface AddressRepository extends JpaRepository<Address, Long> {}

@RepositoryRestResource(exported = false)
interface SecretRepository extends JpaRepository<Secret, Long> {}
