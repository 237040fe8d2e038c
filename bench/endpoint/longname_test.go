package endpoint

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

var _ = Describe("the report of a table with the longest name DynamoDB allows", Label("wire"), func() {
	It("is written, its folder name bounded", func(ctx SpecContext) {
		h := New(Config{Local: local, Limits: emulate.Config{Settings: throughput.Settings{Scale: 100, Partitions: 4}}})
		srv := httptest.NewServer(h)
		DeferCleanup(srv.Close)
		name := fmt.Sprintf("ddbh-p%d-", GinkgoParallelProcess())
		name += strings.Repeat("t", 255-len(name))
		direct := testbed.Client(local)
		Expect(designs.CreateTable(ctx, direct, schema, name)).To(Succeed())
		DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, direct, name)).To(Succeed()) })
		_, err := testbed.Client(srv.URL).PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: itemAt("A", "1")})
		Expect(err).NotTo(HaveOccurred())
		dirs, err := h.Report(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		Expect(dirs).To(HaveLen(1))
	})
})
