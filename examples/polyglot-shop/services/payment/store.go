package main

import (
	"fmt"
	"sort"
	"sync"
	"time"

	paymentv1 "github.com/polyglot-shop/genproto/shop/payment/v1"
)

type payment struct {
	PaymentID string
	OrderID   string
	Amount    *paymentv1.Money
	Status    paymentv1.PaymentStatus
	SettledAt time.Time
}

func (p payment) toSettlement() *paymentv1.Settlement {
	return &paymentv1.Settlement{
		PaymentId:       p.PaymentID,
		OrderId:         p.OrderID,
		Amount:          p.Amount,
		SettledAtUnixMs: p.SettledAt.UnixMilli(),
	}
}

// settlementStore keeps payments in memory; a restart forgets them, which the demo accepts.
type settlementStore struct {
	mu       sync.Mutex
	next     int
	payments map[string]payment
}

func newSettlementStore() *settlementStore {
	return &settlementStore{payments: map[string]payment{}}
}

func (s *settlementStore) authorize(orderID string, amount *paymentv1.Money) payment {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	p := payment{
		PaymentID: fmt.Sprintf("pay-%06d", s.next),
		OrderID:   orderID,
		Amount:    amount,
		Status:    paymentv1.PaymentStatus_PAYMENT_STATUS_AUTHORIZED,
	}
	s.payments[p.PaymentID] = p
	return p
}

func (s *settlementStore) get(paymentID string) (payment, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.payments[paymentID]
	return p, ok
}

func (s *settlementStore) settle(paymentID string) (payment, bool) {
	return s.transition(paymentID, paymentv1.PaymentStatus_PAYMENT_STATUS_SETTLED)
}

func (s *settlementStore) refund(paymentID string) payment {
	p, _ := s.transition(paymentID, paymentv1.PaymentStatus_PAYMENT_STATUS_REFUNDED)
	return p
}

func (s *settlementStore) transition(paymentID string, to paymentv1.PaymentStatus) (payment, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.payments[paymentID]
	if !ok {
		return payment{}, false
	}
	p.Status = to
	if to == paymentv1.PaymentStatus_PAYMENT_STATUS_SETTLED {
		p.SettledAt = time.Now()
	}
	s.payments[paymentID] = p
	return p, true
}

func (s *settlementStore) settledSince(unixMs int64) []payment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []payment
	for _, p := range s.payments {
		if !p.SettledAt.IsZero() && p.SettledAt.UnixMilli() >= unixMs {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SettledAt.Before(out[j].SettledAt) })
	return out
}
