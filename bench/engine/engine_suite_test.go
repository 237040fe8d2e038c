package engine_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The engine's specs run on a fake database: pacing, workers, results and
// the table's lifecycle need no DynamoDB.
func TestEngine(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "engine", Label("engine"))
}
