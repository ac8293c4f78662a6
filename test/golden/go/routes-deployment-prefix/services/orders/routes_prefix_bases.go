package main

import (
	"net/http"
	"os"

	"github.com/gorilla/mux"
)

var shop = "/shop"

func routes(r *mux.Router, base string, h http.HandlerFunc) {
	r.HandleFunc(base+"/cart", h)
	mount := "/api"
	if os.Getenv("MOUNTED") != "" {
		mount = os.Getenv("MOUNT")
	}
	r.HandleFunc(mount+"/orders", h)
	r.HandleFunc(os.Getenv("PREFIX")+"cart", h)
	r.HandleFunc(prefix()+"/items", h)
	r.HandleFunc(shop+"/basket", h)
}

func prefix() string { return os.Args[0] }
