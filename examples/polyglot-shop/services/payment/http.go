package main

import (
	"encoding/json"
	"net/http"
)

type paymentView struct {
	PaymentID       string `json:"paymentId"`
	OrderID         string `json:"orderId"`
	Status          string `json:"status"`
	CurrencyCode    string `json:"currencyCode"`
	Units           int64  `json:"units"`
	SettledAtUnixMs int64  `json:"settledAtUnixMs,omitempty"`
}

func registerRoutes(mux *http.ServeMux, store *settlementStore) {
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /payments/{id}", getPayment(store))
}

func getPayment(store *settlementStore) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, ok := store.get(r.PathValue("id"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		view := paymentView{
			PaymentID:    p.PaymentID,
			OrderID:      p.OrderID,
			Status:       p.Status.String(),
			CurrencyCode: p.Amount.GetCurrencyCode(),
			Units:        p.Amount.GetUnits(),
		}
		if !p.SettledAt.IsZero() {
			view.SettledAtUnixMs = p.SettledAt.UnixMilli()
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(view)
	}
}
