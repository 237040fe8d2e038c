package cost_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The estimate seeds fixtures in memory and prices them: no DynamoDB.
func TestCost(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "cost", Label("cost", "unit"))
}
