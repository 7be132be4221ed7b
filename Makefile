# kgeval — build, run and test. Everything the project needs is installed by
# these targets; see README.md "Quick start".
SHELL := /bin/bash
.DEFAULT_GOAL := help

GO       ?= go
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT   ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS  := -X main.version=$(VERSION) -X main.commit=$(COMMIT)
export KGEVAL_STATE_DIR ?= $(CURDIR)/.kgeval
export KGEVAL_NEO4J_BOLT_PORT ?= 7687
export KGEVAL_NEO4J_HTTP_PORT ?= 7474
export KGEVAL_LLM_PORT ?= 8089
DATASET  ?= testdata/wikieval.jsonl
RUN_LIMIT ?= 6
KGEVAL_FLAGS = --neo4j-uri bolt://127.0.0.1:$(KGEVAL_NEO4J_BOLT_PORT) --llm-base-url http://127.0.0.1:$(KGEVAL_LLM_PORT)/v1

.PHONY: help build wheel wheelhouse test bench bench-peers run deps neo4j-install neo4j-start neo4j-stop neo4j-status \
        models minilm llm-install llm-start llm-stop llm-status vet clean

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

deps: ## check the toolchain and download Go modules
	@scripts/check-tools.sh
	@$(GO) mod download

build: ## build bin/kgeval (static: CGO_ENABLED=0, the binary the wheel carries)
	@mkdir -p bin
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o bin/kgeval ./cmd/kgeval

# The macOS wheels make wheel cross-compiles besides the host's (GOOS/GOARCH).
WHEEL_CROSS ?= darwin/arm64 darwin/amd64

wheel: build ## build dist/kgeval-*.whl: bin/kgeval and the Python package (python/kgeval), docs/PYTHON.md; also the macOS arm64 and x86_64 wheels (cross-compiled)
	@scripts/build-wheel.py --binary bin/kgeval --version "$(VERSION)" --src python --out dist
	@for p in $(WHEEL_CROSS); do os=$${p%/*}; arch=$${p#*/}; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -ldflags "$(LDFLAGS)" -o bin/kgeval-$$os-$$arch ./cmd/kgeval && \
	  scripts/build-wheel.py --binary bin/kgeval-$$os-$$arch --version "$(VERSION)" --src python --out dist || exit 1; done

wheelhouse: ## fill dist/wheelhouse with what pip install kgeval[local] needs (scripts/requirements-wheelhouse.txt), for installs with no index
	@scripts/wheelhouse.sh

neo4j-install: ## fetch Neo4j + GDS jars from Maven Central
	@deploy/neo4j/neo4j.sh install

neo4j-start: ## start the bundled Neo4j + GDS on 127.0.0.1 (idempotent)
	@deploy/neo4j/neo4j.sh start

neo4j-stop: ## stop the bundled Neo4j
	@deploy/neo4j/neo4j.sh stop

neo4j-status: ## is the bundled Neo4j running?
	@deploy/neo4j/neo4j.sh status

minilm: ## fetch the all-MiniLM-L6-v2 model files
	@scripts/fetch-minilm.sh

llm-install: ## install the local OpenAI-compatible LLM server and model
	@scripts/llm.sh install

models: minilm llm-install ## install the local models (encoder and LLM server)

llm-start: ## start the local LLM server on 127.0.0.1
	@scripts/llm.sh start

llm-stop: ## stop the local LLM server
	@scripts/llm.sh stop

llm-status: ## is the local LLM server running?
	@scripts/llm.sh status

run: deps web-assets build neo4j-start minilm ## the main job: evaluate a bundled dataset (rules and the local encoder: no model server; make llm-start for scoring.verify cascade or prob)
	@bin/kgeval doctor --fix $(KGEVAL_FLAGS)
	@bin/kgeval evaluate --dataset $(DATASET) --run wikieval-demo --replace --limit $(RUN_LIMIT) $(KGEVAL_FLAGS)
	@echo
	@echo "Dashboard: run 'make serve' (or bin/kgeval serve $(KGEVAL_FLAGS)), then open http://kgeval.localhost:8080/"
	@echo "  and sign in with the admin token it prints on its first start; the run is 'wikieval-demo'."
	@echo "Neo4j Browser: http://127.0.0.1:$(KGEVAL_NEO4J_HTTP_PORT)/browser/ (user neo4j, password in .kgeval/neo4j/password)"
	@echo "  e.g. MATCH (e:Entity {run: 'wikieval-demo', pair: 'faithfulness'})-[r]->(x) RETURN e, r, x LIMIT 200"

test: deps ## all tests, against a real Neo4j + GDS started here if needed
	@scripts/test.sh

bench: deps build ## benchmarks; writes bench/REPORT.md
	@scripts/bench.sh

bench-peers: ## RAGAS 0.4.3 from PyPI on WikiEval-50, same model and encoder; bench/REPORT.md peers section
	@scripts/bench-peers.sh

vet: ## go vet
	$(GO) vet ./...

clean: ## remove build output (not the Neo4j data)
	rm -rf bin dist

# --- dashboard (issue 8) ---
.PHONY: web-assets browser-test serve
web-assets: ## install the dashboard's Cytoscape.js and ECharts from npm into web/assets/vendor (embedded by go build)
	@scripts/web-assets.sh

browser-test: ## the dashboard in headless Chromium against Neo4j; screenshots in docs/screenshots
	@scripts/browser-test.sh

serve: web-assets build neo4j-start ## start the dashboard on server.addr (127.0.0.1:8080)
	@bin/kgeval serve $(KGEVAL_FLAGS)

.PHONY: bench-web
bench-web: ## load test of the dashboard API on loopback: run summary and sample list of a 10,000-sample run, p50/p99
	@$(GO) run ./web/webbench -samples $${KGEVAL_BENCH_WEB_SAMPLES:-10000} -c 4 -d 10s

# --- validity (issue: reproducible validity numbers; docs/VALIDITY.md) ---
.PHONY: validity validity-snapshot heldout
validity: deps build ## WikiEval-50 win rates and sensitivity AUROCs replayed from testdata/cache/wikieval50.jsonl.gz, no model call (minutes)
	@scripts/validity.sh replay

validity-snapshot: deps build ## the same against the local model, then export the snapshot (hours, once)
	@scripts/validity.sh snapshot

heldout: deps build ## ExpertQA (expert claim labels) with extraction.method rules: metric-label correlations, no model call (minutes)
	@scripts/heldout.sh

# --- factcheck (issue 37: claim-level faithfulness on the training mix; testdata/README.md, docs/VERDICTS.md) ---
.PHONY: factcheck factcheck-snapshot calibrate factcheck-expertqa factcheck-expertqa-snapshot factcheck-evidence factcheck-missing
factcheck: deps build ## the training mix (RAGTruth, HaluEval, ExpertQA, FaithBench claims), each dataset left out in turn: AUROC and balanced accuracy per dataset and macro, replayed from testdata/cache/mix-*.jsonl.gz, no model call
	@scripts/factcheck-mix.sh replay

factcheck-snapshot: deps build ## the same against the local model, then export each dataset's snapshot (hours)
	@scripts/factcheck-mix.sh snapshot

calibrate: ## after make factcheck: refit scoring/claims/calibration.json on the mix runs (leave-one-dataset-out feature selection)
	@scripts/factcheck-mix.sh calibrate

factcheck-expertqa: deps build ## ExpertQA claims alone (Complete / Incomplete evidence, 325 + 325), replayed from testdata/cache/factcheck.jsonl.gz
	@scripts/factcheck.sh replay

factcheck-expertqa-snapshot: deps build ## the same against the local model, then export the snapshot (hours, once)
	@scripts/factcheck.sh snapshot

factcheck-evidence: deps build ## the balanced claims with a 128-token evidence window chosen by the graph, by cosine, or the whole context; side by side in docs/results/factcheck-evidence.txt
	@scripts/factcheck.sh evidence

factcheck-missing: deps build ## the 236 claims experts found no evidence for (Missing) against the 325 Complete ones, counted apart
	@KGEVAL_FACTCHECK_GROUP=missing scripts/factcheck.sh replay

# --- value per cost (issue 50: bench/REPORT.md "Value per cost") ---
.PHONY: value-per-cost cost-cold
value-per-cost: ## the value-per-cost table and plot from docs/results (factcheck-mix.json, cost-*.json) into bench/REPORT.md
	@python3 scripts/value-per-cost.py docs/results/factcheck-mix.json docs/results bench/VALUE.md bench/value-per-cost.svg
	@python3 -c "import re,subprocess,sys; r=open('bench/REPORT.md').read(); sec=subprocess.run(['scripts/value-per-cost-section.sh'],capture_output=True,text=True,check=True).stdout; b='<!-- value:begin (make value-per-cost) -->'; e='<!-- value:end -->'; new=b+'\n'+sec+e; r=re.sub(re.escape(b)+'.*?'+re.escape(e), lambda m: new, r, flags=re.S) if b in r else r.rstrip()+'\n\n'+new+'\n'; open('bench/REPORT.md','w').write(r)"
	@echo "value-per-cost: wrote bench/VALUE.md, bench/value-per-cost.svg and bench/REPORT.md's section"

cost-cold: build ## the model's cost of each configuration cold on 6 WikiEval records (docs/results/cost-*.json; minutes, hours with model extraction)
	@scripts/cost-cold.sh

# --- pass marks against a reference (issue 50 point 4; testdata/rel_*.jsonl) ---
.PHONY: reference-marks
reference-marks: deps build ## evaluate the answer-equivalence sets (rules, no model) and refit analysis/reference_marks.json (docs/results/reference-marks.txt)
	@scripts/reference-marks.sh
