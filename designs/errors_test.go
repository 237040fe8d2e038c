package designs_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ddbharness/ddbharness/designs"
)

func TestDomainError(t *testing.T) {
	errTaken := designs.Refusal("email already taken")
	errOtherTaken := designs.Refusal("email already taken") // same text, another rule
	err := fmt.Errorf("AP-02: client 7: %w", errors.Join(errTaken, errors.New("transaction cancelled")))

	if !errors.Is(err, errTaken) || !errors.Is(err, designs.ErrRefused) {
		t.Errorf("errors.Is(%v, sentinel) = %v, errors.Is(%v, ErrRefused) = %v, want both true",
			err, errors.Is(err, errTaken), err, errors.Is(err, designs.ErrRefused))
	}
	if errors.Is(err, errOtherTaken) {
		t.Errorf("errors.Is(%v, another sentinel of the same text) = true, want false: sentinels differ by identity", err)
	}
	for _, category := range []error{designs.ErrInvalidInput, designs.ErrNotFound, designs.ErrAlreadyExists, designs.ErrConflict} {
		if errors.Is(err, category) {
			t.Errorf("errors.Is(%v, %v) = true, want false: a refusal is no other category", err, category)
		}
	}
	var d *designs.DomainError
	if !errors.As(err, &d) || d.Error() != "email already taken" {
		t.Errorf("errors.As(%v, *DomainError) = %v, want the sentinel, its text alone", err, d)
	}
	if got, want := err.Error(), "AP-02: client 7: email already taken\ntransaction cancelled"; got != want {
		t.Errorf("wrapped error text = %q, want %q", got, want)
	}

	notFound := designs.NewError(designs.ErrNotFound, "no such shelf")
	if !errors.Is(notFound, designs.ErrNotFound) || errors.Is(notFound, designs.ErrRefused) {
		t.Errorf("NewError(ErrNotFound, ...) = %v: want an ErrNotFound and no ErrRefused", notFound)
	}
	if too := designs.CheckTransactSize(designs.MaxTransactActions + 1); !errors.Is(too, designs.ErrInvalidInput) {
		t.Errorf("CheckTransactSize(101) = %v, want an ErrInvalidInput", too)
	}
}
