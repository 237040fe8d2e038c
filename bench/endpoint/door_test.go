package endpoint

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// padded is a PutItem to table whose body, spaces inside, is n bytes.
func padded(table string, n int) []byte {
	head := `{"TableName":"` + table + `",`
	tail := `"Item":{"PK":{"S":"big"},"SK":{"S":"1"}}}`
	return []byte(head + strings.Repeat(" ", n-len(head)-len(tail)) + tail)
}

var _ = Describe("the endpoint's door", Label("wire"), func() {
	var (
		url, table string
		client     *http.Client
	)
	BeforeEach(func(ctx SpecContext) {
		h := New(Config{Local: local, Limits: emulate.Config{Settings: throughput.Settings{Scale: 100, Partitions: 4}}})
		srv := httptest.NewServer(h)
		DeferCleanup(srv.Close)
		url, client = srv.URL, &http.Client{}
		table = designs.TableName("door", fmt.Sprintf("p%d", GinkgoParallelProcess()))
		direct := testbed.Client(local)
		Expect(designs.CreateTable(ctx, direct, schema, table)).To(Succeed())
		DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, direct, table)).To(Succeed()) })
	})
	send := func(url, op string, body io.Reader, length int64, signed bool) ddbtest.WireAnswer {
		GinkgoHelper()
		req, err := http.NewRequest(http.MethodPost, url, body)
		Expect(err).NotTo(HaveOccurred())
		req.ContentLength = length // -1: chunked, no length said
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		if signed {
			req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
		}
		resp, err := client.Do(req)
		Expect(err).NotTo(HaveOccurred(), "the client reads the answer, not a reset connection")
		defer resp.Body.Close()
		b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		Expect(err).NotTo(HaveOccurred())
		return ddbtest.WireAnswer{Status: resp.StatusCode, Body: string(b)}
	}
	post := func(url string, body io.Reader, length int64) ddbtest.WireAnswer {
		GinkgoHelper()
		return send(url, "PutItem", body, length, true)
	}

	It("refuses a data-plane call with no credentials as DynamoDB Local does, and writes nothing", func() {
		put := `{"TableName":"` + table + `","Item":{"PK":{"S":"unsigned"},"SK":{"S":"1"}}}`
		want := send(local, "PutItem", strings.NewReader(put), int64(len(put)), false)
		Expect(want.Body).To(ContainSubstring("MissingAuthenticationToken"))
		Expect(send(url, "PutItem", strings.NewReader(put), int64(len(put)), false)).To(Equal(want))
		get := `{"TableName":"` + table + `","Key":{"PK":{"S":"unsigned"},"SK":{"S":"1"}},"ConsistentRead":true}`
		Expect(send(local, "GetItem", strings.NewReader(get), int64(len(get)), true)).To(Equal(ddbtest.WireAnswer{Status: http.StatusOK, Body: "{}"}))
	})

	It("refuses a body over 16 MiB with HTTP 413, said or not said in Content-Length, and takes one of 16 MiB, as DynamoDB Local does", func() {
		over := padded(table, MaxBody+1)
		want := post(local, bytes.NewReader(over), int64(len(over)))
		Expect(want.Status).To(Equal(http.StatusRequestEntityTooLarge))
		Expect(post(url, bytes.NewReader(over), int64(len(over)))).To(Equal(want))
		Expect(post(url, io.MultiReader(bytes.NewReader(over)), -1)).To(Equal(want))
		at := padded(table, MaxBody)
		Expect(post(url, bytes.NewReader(at), int64(len(at)))).To(Equal(ddbtest.WireAnswer{Status: http.StatusOK, Body: "{}"}))

		// The endpoint's own answer has a request id of DynamoDB's shape
		// (52 upper-case letters and digits, as captured on the wire:
		// https://github.com/apache/hadoop/pull/1814).
		resp, err := client.Post(url, "application/x-amz-json-1.0", bytes.NewReader(over))
		Expect(err).NotTo(HaveOccurred())
		resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusRequestEntityTooLarge))
		Expect(resp.Header.Get("X-Amzn-Requestid")).To(MatchRegexp(`^[A-Z0-9]{52}$`))
	})

	It("closes a connection whose body never comes, within its read bound", func() {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		srv := Server(New(Config{Local: local, Off: true}), 50*time.Millisecond, 200*time.Millisecond)
		go srv.Serve(lis)
		DeferCleanup(srv.Close)
		conn, err := net.Dial("tcp", lis.Addr().String())
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(conn.Close)
		_, err = fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 100\r\n\r\n{")
		Expect(err).NotTo(HaveOccurred())
		// A bound on the spec, far above the server's: the answer (or the
		// close) comes from the server's own.
		Expect(conn.SetReadDeadline(time.Now().Add(time.Minute))).To(Succeed())
		answer, err := io.ReadAll(bufio.NewReader(conn))
		Expect(err).NotTo(HaveOccurred(), "the server ended the connection itself")
		Expect(string(answer)).NotTo(ContainSubstring("200 OK"))
	})
})
