package memstore_test

import (
	"testing"

	"github.com/tripgraph/tripgraph/store/accounts/accountstest"
	"github.com/tripgraph/tripgraph/store/memstore"
)

// The twin's accounts pass the accounts' suite.
func TestAccounts(t *testing.T) {
	accountstest.Run(t, func(t *testing.T) accountstest.Accounts {
		return memstore.New(memstore.Options{}).Accounts
	})
}
