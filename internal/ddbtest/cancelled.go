package ddbtest

import (
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// CancellationCodes checks that err is a cancelled transaction and lists
// its cancellation reasons' codes, in action order.
func CancellationCodes(err error) []string {
	GinkgoHelper()
	var tce *types.TransactionCanceledException
	Expect(errors.As(err, &tce)).To(BeTrue(), "want a TransactionCanceledException, got %v", err)
	codes := make([]string, len(tce.CancellationReasons))
	for i, r := range tce.CancellationReasons {
		codes[i] = aws.ToString(r.Code)
	}
	return codes
}
