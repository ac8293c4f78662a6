package orders

import (
	"fmt"

	db "example.com/shop/store"
	"example.com/shop/payment/pb"
)

// Repo stores orders.
type Repo interface {
	io.Closer
	// Save writes one order.
	Save(o *Order) error
	Find(id string) (*Order, error)
}

type Order struct {
	ID string
}

type Service struct {
	*Base
	repo   Repo
	store  *db.Store
	client pb.PaymentClient
	name   string
}

var defaultRepo = newMemRepo()

func newMemRepo() *memRepo {
	return &memRepo{}
}

// Place saves an order and charges it.
func (s *Service) Place(ctx context.Context, o *Order) error {
	if err := s.validate(o); err != nil {
		return fmt.Errorf("invalid: %w", err)
	}
	s.repo.Save(o)
	s.store.Tx().Commit()
	local := &Ledger{}
	local.Record(o.ID)
	var audit Audit
	audit.Log("placed")
	charge := func(amount int) {
		s.client.Charge(ctx, &pb.ChargeRequest{Amount: int64(amount)})
		helper(amount)
	}
	charge(len(o.ID))
	s.Base.Hello()
	return nil
}

func (s *Service) validate(o *Order) error {
	return check(o)
}

func check(o *Order) error {
	cart := new(Cart)
	cart.Add(o)
	m := newMemRepo()
	m.Save(o)
	defaultRepo.Find(o.ID)
	fmt.Println(unknown.Thing())
	return db.Open("x").Ping()
}

func init() {
	Register(NewService())
}
