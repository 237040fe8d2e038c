package emulate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/internal/testnet"
)

// through sends a call through the gate, one attempt.
func through(g *testnet.Gate) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) { o.HTTPClient = g; o.RetryMaxAttempts = 1 }
}

// inFlight bound: the held request reaches the gate within it, even on a
// loaded machine.
const inFlight = 10 * time.Second

var _ = Describe("transaction conflicts on the wire", Label("wire"), func() {
	var (
		e     *Emulator
		db    *meter.Client
		table string
		cfg   Config
		g     *testnet.Gate
		clock *ddbtest.Clock
	)
	BeforeEach(func() {
		// The clock stands still unless a spec moves it: a request held at
		// the gate stays within its hold, however long the machine takes.
		clock = ddbtest.NewClock()
		cfg = Config{Settings: throughput.Settings{Partitions: 4}, Now: clock.Now}
	})
	JustBeforeEach(func(ctx SpecContext) {
		e, db, table = emulated(ctx, wireSchema, cfg, "conflicts")
		g = testnet.NewGate(raw.Options().HTTPClient)
		DeferCleanup(g.Release)
	})

	// hold starts send through the gate and returns once its request is in
	// flight, with what gives its error after the gate opens.
	hold := func(send func(ctx context.Context, opt func(*dynamodb.Options)) error) func() error {
		GinkgoHelper()
		done := make(chan error, 1)
		ctx, cancel := context.WithTimeout(context.Background(), 2*inFlight)
		DeferCleanup(cancel)
		go func() { done <- send(ctx, through(g)) }()
		Eventually(g.Entered).WithTimeout(inFlight).Should(Receive(), "the held request never reached the wire")
		return func() error {
			g.Release()
			select {
			case err := <-done:
				return err
			case <-time.After(inFlight):
				return errors.New("the held request did not end")
			}
		}
	}
	txPut := func(keys ...string) *dynamodb.TransactWriteItemsInput {
		in := &dynamodb.TransactWriteItemsInput{}
		for _, k := range keys {
			in.TransactItems = append(in.TransactItems, types.TransactWriteItem{Put: &types.Put{TableName: aws.String(table), Item: itemAt(k, "x", "")}})
		}
		return in
	}
	txGet := func(keys ...string) *dynamodb.TransactGetItemsInput {
		in := &dynamodb.TransactGetItemsInput{}
		for _, k := range keys {
			in.TransactItems = append(in.TransactItems, types.TransactGetItem{Get: &types.Get{TableName: aws.String(table), Key: itemAt(k, "x", "")}})
		}
		return in
	}
	put := func(ctx context.Context, k string, opts ...func(*dynamodb.Options)) error {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemAt(k, "x", "")}, opts...)
		return err
	}
	stored := func(ctx SpecContext, k string) bool {
		GinkgoHelper()
		out, err := raw.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: itemAt(k, "x", ""), ConsistentRead: aws.Bool(true)})
		Expect(err).NotTo(HaveOccurred())
		return len(out.Item) > 0
	}

	It("fails a single-item write of an item an ongoing TransactWriteItems writes with TransactionConflictException", func(ctx SpecContext) {
		done := hold(func(ctx context.Context, opt func(*dynamodb.Options)) error {
			_, err := db.TransactWriteItems(ctx, txPut("A", "B"), opt)
			return err
		})
		var conflict *types.TransactionConflictException
		Expect(errors.As(put(ctx, "B"), &conflict)).To(BeTrue(), "PutItem of B while the transaction writing it is in flight")
		Expect(put(ctx, "C")).To(Succeed(), "an item the transaction does not write")
		Expect(stored(ctx, "B")).To(BeFalse(), "the refused put wrote nothing")
		Expect(done()).To(Succeed())
		Expect(stored(ctx, "B")).To(BeTrue())

		m := e.Measured(0, 0)
		Expect(m.Conflicts).To(BeEquivalentTo(1))
		Expect(m.ConflictCancelled).To(BeZero())
		Expect(m.ConflictItems).To(Equal([]ItemConflicts{{Item: "B / x", Conflicts: 1}}))
	})

	It("cancels a TransactWriteItems with an item another ongoing one writes, TransactionConflict for that action", func(ctx SpecContext) {
		done := hold(func(ctx context.Context, opt func(*dynamodb.Options)) error {
			_, err := db.TransactWriteItems(ctx, txPut("A", "B"), opt)
			return err
		})
		_, err := db.TransactWriteItems(ctx, txPut("C", "B"))
		Expect(ddbtest.CancellationCodes(err)).To(Equal([]string{"None", "TransactionConflict"}))
		Expect(designs.IsTransactionConflict(err)).To(BeTrue())
		Expect(stored(ctx, "C")).To(BeFalse(), "a cancelled transaction writes nothing")
		Expect(done()).To(Succeed())

		m := e.Measured(0, 0)
		Expect(m.Conflicts).To(BeEquivalentTo(1))
		Expect(m.ConflictCancelled).To(BeEquivalentTo(1))
	})

	It("cancels a TransactGetItems of an item an ongoing write writes, and one that a write meets while it is ongoing, letting the write through", func(ctx SpecContext) {
		done := hold(func(ctx context.Context, opt func(*dynamodb.Options)) error { return put(ctx, "A", opt) })
		_, err := db.TransactGetItems(ctx, txGet("A", "B"))
		Expect(ddbtest.CancellationCodes(err)).To(Equal([]string{"TransactionConflict", "None"}))
		_, err = db.TransactWriteItems(ctx, txPut("A"))
		Expect(err).NotTo(HaveOccurred(), "a single-item write in flight does not block a transaction's write")
		Expect(done()).To(Succeed())

		g = testnet.NewGate(raw.Options().HTTPClient)
		DeferCleanup(g.Release)
		done = hold(func(ctx context.Context, opt func(*dynamodb.Options)) error {
			_, err := db.TransactGetItems(ctx, txGet("B"), opt)
			return err
		})
		_, err = db.TransactWriteItems(ctx, txPut("B"))
		Expect(err).NotTo(HaveOccurred(), "AWS cancels the ongoing TransactGetItems, not the write")
		Expect(put(ctx, "B")).To(Succeed())
		Expect(ddbtest.CancellationCodes(done())).To(Equal([]string{"TransactionConflict"}), "the read the writes met")

		By("a TransactGetItems no write meets reads as before")
		g = testnet.NewGate(raw.Options().HTTPClient)
		DeferCleanup(g.Release)
		done = hold(func(ctx context.Context, opt func(*dynamodb.Options)) error {
			_, err := db.TransactGetItems(ctx, txGet("A", "B"), opt)
			return err
		})
		Expect(put(ctx, "C")).To(Succeed())
		Expect(done()).To(Succeed())

		m := e.Measured(0, 0)
		Expect(m.ConflictCancelled).To(BeEquivalentTo(2))
		Expect(m.ConflictItems).To(ContainElement(ItemConflicts{Item: "B / x", Conflicts: 1}))
		Expect(e.inflight).To(BeEmpty(), "no item is left in flight")
	})

	It("leaves a met TransactGetItems's own error answer as it is", func(ctx SpecContext) {
		done := hold(func(ctx context.Context, opt func(*dynamodb.Options)) error {
			in := txGet("B")
			in.TransactItems[0].Get.ProjectionExpression = aws.String("#undeclared") // DynamoDB Local refuses it
			_, err := db.TransactGetItems(ctx, in, opt)
			return err
		})
		Expect(put(ctx, "B")).To(Succeed())
		err := done()
		var api smithy.APIError
		Expect(errors.As(err, &api)).To(BeTrue(), "%v", err)
		Expect(api.ErrorCode()).To(Equal("ValidationException"))
		Expect(e.Measured(0, 0).ConflictCancelled).To(BeZero())
		Expect(e.inflight).To(BeEmpty())
	})

	Describe("a request held on the test bed past its hold on DynamoDB", func() {
		var conflict *types.TransactionConflictException
		regate := func() {
			g = testnet.NewGate(raw.Options().HTTPClient)
			DeferCleanup(g.Release)
		}

		It("holds a transaction's items for the hold alone: a write within it conflicts, one after it goes through", func(ctx SpecContext) {
			done := hold(func(ctx context.Context, opt func(*dynamodb.Options)) error {
				_, err := db.TransactWriteItems(ctx, txPut("A", "B"), opt)
				return err
			})
			clock.Add(rules.DefaultTransactionHold - time.Millisecond)
			Expect(errors.As(put(ctx, "B"), &conflict)).To(BeTrue(), "a PutItem within the hold")
			_, err := db.TransactWriteItems(ctx, txPut("A"))
			Expect(designs.IsTransactionConflict(err)).To(BeTrue(), "a TransactWriteItems within the hold")

			clock.Add(time.Millisecond)
			Expect(put(ctx, "B")).To(Succeed(), "on DynamoDB the transaction ended at its hold, whatever the test bed's flight")
			_, err = db.TransactWriteItems(ctx, txPut("A"))
			Expect(err).NotTo(HaveOccurred())
			Expect(done()).To(Succeed())

			m := e.Measured(0, 0)
			Expect(m.Conflicts).To(BeEquivalentTo(2))
			Expect(m.ConflictCancelled).To(BeEquivalentTo(1))
			Expect(e.inflight).To(BeEmpty(), "no item is left in flight")
		})

		It("holds a single write, and a TransactGetItems, for the hold alone", func(ctx SpecContext) {
			done := hold(func(ctx context.Context, opt func(*dynamodb.Options)) error { return put(ctx, "A", opt) })
			clock.Add(rules.DefaultTransactionHold)
			_, err := db.TransactGetItems(ctx, txGet("A"))
			Expect(err).NotTo(HaveOccurred(), "the write in flight past its hold")
			Expect(done()).To(Succeed())

			regate()
			done = hold(func(ctx context.Context, opt func(*dynamodb.Options)) error {
				_, err := db.TransactGetItems(ctx, txGet("B"), opt)
				return err
			})
			clock.Add(rules.DefaultTransactionHold)
			Expect(put(ctx, "B")).To(Succeed())
			Expect(done()).To(Succeed(), "a write after the read's hold does not cancel it")
			Expect(e.Measured(0, 0).ConflictCancelled).To(BeZero())
		})

		Context("with a pattern's own hold and the scenario's", func() {
			BeforeEach(func() {
				cfg.Holds = capacity.Holds{Transaction: time.Second, Pattern: map[designs.PatternID]time.Duration{"AP-07": 100 * time.Millisecond}}
			})
			It("holds each call's items for its pattern's hold", func(ctx SpecContext) {
				done := hold(func(ctx context.Context, opt func(*dynamodb.Options)) error {
					_, err := db.TransactWriteItems(designs.WithPattern(ctx, "AP-07"), txPut("A"), opt)
					return err
				})
				clock.Add(99 * time.Millisecond)
				Expect(errors.As(put(ctx, "A"), &conflict)).To(BeTrue(), "within AP-07's hold")
				clock.Add(time.Millisecond)
				Expect(put(ctx, "A")).To(Succeed(), "AP-07's hold passed")
				Expect(done()).To(Succeed())

				regate()
				done = hold(func(ctx context.Context, opt func(*dynamodb.Options)) error {
					_, err := db.TransactWriteItems(ctx, txPut("A"), opt)
					return err
				})
				clock.Add(999 * time.Millisecond)
				Expect(errors.As(put(ctx, "A"), &conflict)).To(BeTrue(), "within the scenario's hold")
				clock.Add(time.Millisecond)
				Expect(put(ctx, "A")).To(Succeed())
				Expect(done()).To(Succeed())
			})
		})
	})

	Context("with conflicts off", func() {
		BeforeEach(func() { cfg.NoConflicts = true })
		It("lets every write through, as DynamoDB Local does", func(ctx SpecContext) {
			done := hold(func(ctx context.Context, opt func(*dynamodb.Options)) error {
				_, err := db.TransactWriteItems(ctx, txPut("A"), opt)
				return err
			})
			Expect(put(ctx, "A")).To(Succeed())
			_, err := db.TransactWriteItems(ctx, txPut("A"))
			Expect(err).NotTo(HaveOccurred())
			Expect(done()).To(Succeed())
			m := e.Measured(0, 0)
			Expect(m.Conflicts).To(BeZero())
			Expect(m.ConflictsOff).To(BeTrue())
		})
	})

	Describe("a design's transaction", func() {
		counter := itemAt("COUNTER", "x", "")
		add := func() *designs.Tx {
			tx := &designs.Tx{Table: table}
			tx.Update(counter, expression.Add(expression.Name("n"), expression.Value(1)), expression.ConditionBuilder{}, nil)
			return tx
		}
		count := func(ctx SpecContext) int {
			GinkgoHelper()
			out, err := raw.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: counter, ConsistentRead: aws.Bool(true)})
			Expect(err).NotTo(HaveOccurred())
			n, ok := out.Item["n"].(*types.AttributeValueMemberN)
			if !ok {
				return 0
			}
			var v int
			fmt.Sscan(n.Value, &v)
			return v
		}
		holdAdd := func() func() error {
			return hold(func(ctx context.Context, opt func(*dynamodb.Options)) error {
				_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Update: &types.Update{
					TableName: aws.String(table), Key: counter, UpdateExpression: aws.String("ADD n :one"),
					ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}}}}}, opt)
				return err
			})
		}

		It("still in conflict after its retries, writes nothing and is an ErrConflict, not a refusal", func(ctx SpecContext) {
			done := holdAdd()
			err := add().Write(ctx, db)
			Expect(err).To(MatchError(designs.ErrTransactionConflict))
			Expect(errors.Is(err, designs.ErrConflict)).To(BeTrue())
			Expect(errors.Is(err, designs.ErrRefused)).To(BeFalse())
			Expect(count(ctx)).To(BeZero(), "nothing written while the other transaction is in flight")
			Expect(done()).To(Succeed())
			Expect(count(ctx)).To(Equal(1), "the other transaction alone")
			Expect(e.Measured(0, 0).ConflictCancelled).To(BeEquivalentTo(designs.ConflictRetries + 1))
			// Given up once, its resends aside: the capacity model counts it
			// as asking for the item (capacity.Model.TxDenied).
			Expect(e.TxDenied()).To(Equal(map[string]map[designs.PatternID]int64{"COUNTER / x": {"": 1}}))
		})

		It("retried once the other ends, is applied once", func(ctx SpecContext) {
			done := holdAdd()
			var held error
			// The other transaction ends at the first conflict, before the retry.
			ends := &onConflict{DB: db, then: func() { held = done() }}
			Expect(add().Write(ctx, ends)).To(Succeed())
			Expect(held).NotTo(HaveOccurred())
			Expect(ends.conflicts).To(Equal(1))
			Expect(count(ctx)).To(Equal(2), "each transaction once")
		})

		It("whose answer is lost is sent again by the SDK with its ClientRequestToken and applied once", func(ctx SpecContext) {
			l := &loseFirst{next: raw.Options().HTTPClient}
			lossy := e.Client(dynamodb.New(raw.Options(), ddbtest.QuickRetries, func(o *dynamodb.Options) { o.HTTPClient = l }))
			Expect(add().Write(ctx, lossy)).To(Succeed())
			Expect(l.tokens).To(HaveLen(2), "the SDK sent the transaction again after the lost answer")
			Expect(l.tokens[0]).NotTo(BeEmpty())
			Expect(l.tokens[1]).To(Equal(l.tokens[0]))
			Expect(count(ctx)).To(Equal(1), "DynamoDB applied it once")
		})
	})
})

// onConflict calls then after its first transaction cancelled for a
// conflict, before the caller sees the cancellation.
type onConflict struct {
	designs.DB
	then      func()
	conflicts int
}

func (c *onConflict) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	out, err := c.DB.TransactWriteItems(ctx, in, opts...)
	if designs.IsTransactionConflict(err) {
		if c.conflicts++; c.conflicts == 1 {
			c.then()
		}
	}
	return out, err
}

// loseFirst forwards every request, but answers the first
// TransactWriteItems, which DynamoDB applied, with a server error, as if
// its answer were lost; it notes each TransactWriteItems' token.
type loseFirst struct {
	next   dynamodb.HTTPClient
	mu     sync.Mutex
	tokens []string
}

func (l *loseFirst) Do(r *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(r.Header.Get("X-Amz-Target"), ".TransactWriteItems") {
		return l.next.Do(r)
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var in struct{ ClientRequestToken string }
	_ = json.Unmarshal(body, &in)
	l.mu.Lock()
	l.tokens = append(l.tokens, in.ClientRequestToken)
	first := len(l.tokens) == 1
	l.mu.Unlock()
	resp, err := l.next.Do(r)
	if err != nil || !first {
		return resp, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	lost := []byte(`{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"answer lost"}`)
	return &http.Response{StatusCode: http.StatusInternalServerError, Status: "500 Internal Server Error", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}}, Body: io.NopCloser(bytes.NewReader(lost)),
		ContentLength: int64(len(lost)), Request: r}, nil
}
