package main

import (
	"encoding/json"
	"net/http"
)

type subscription struct {
	PubsubName string `json:"pubsubname"`
	Topic      string `json:"topic"`
	Route      string `json:"route"`
}

func subscribe(w http.ResponseWriter, r *http.Request) {
	json.NewEncoder(w).Encode([]subscription{{PubsubName: "orderpubsub", Topic: "payments", Route: "/payments"}})
}

func main() {
	http.HandleFunc("/dapr/subscribe", subscribe)
	_ = http.ListenAndServe(":6003", nil)
}
