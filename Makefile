# client-go walkthrough. `make help` lists the targets.
#
# Every target runs with only the Go toolchain. Chapters are found on disk
# (the NN-name directories), so a new chapter needs no change here.

SHELL   := /bin/bash
CHAPTERS := $(sort $(patsubst %/go.mod,%,$(wildcard [0-9][0-9]-*/go.mod)))
MODULES  := workshop $(CHAPTERS)
PKGS     := $(foreach m,$(MODULES),./$(m)/...)
# make test runs the tests of a chapter on synctest's fake clock three
# times under -race, so a rare interleaving gets three chances to show
# itself (they take seconds). A chapter on a real clock, which says so in
# testdata/real-clock.txt (07: etcd), runs once: its tests take minutes.
CONCURRENT := $(foreach c,$(CHAPTERS),$(if $(wildcard $(c)/testdata/real-clock.txt),,$(c)))
CH       ?=
# chapter_of: the chapter directory for a name or number (03, 3, 03-indexer).
chapter_of = $(firstword $(filter $(1)-% $(1),$(CHAPTERS)) $(filter 0$(1)-%,$(CHAPTERS)))
chapter   = $(call chapter_of,$(CH))

.PHONY: tidy-check watch generated-check help demo test test-% exercise exercises exercises-check transcripts golden bench fuzz check-format vet selftest coverage workshop

help: ## List the targets.
	@grep -hE '^[a-zA-Z0-9%_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-18s %s\n", $$1, $$2}'

demo: ## Run the sample controller on chapter 07's server, with a live trace (SERVER=fake: on fake clientsets; CLUSTER=local: on kube-apiserver; MINE=1: on your own components).
	@$(MAKE) --no-print-directory demo-run

test: check-format vet tidy-check exercises-check generated-check coverage ## Everything CI checks: format, vet, exercises, exercise coverage, -race tests on reference and client-go, tests of the tests.
	go test -race -count=1 -timeout=30m $(filter-out $(foreach c,$(CONCURRENT),./$(c)/...),$(PKGS))
	go test -race -count=3 $(foreach c,$(CONCURRENT),./$(c)/...)
	go test -race -count=1 -tags ours -run '^(TestDemoOnOurServer|TestControllerRecordsEventsOnOurServer)$$' ./06-controller/cmd/demo ./06-controller/app
	WALKTHROUGH_IMPL=client-go go test -count=1 -run '^TestScenarios$$' $(PKGS)
	go run ./workshop/cmd/selftest

test-%: ## Test one chapter on reference and client-go: make test-03.
	@dir=$(call chapter_of,$*); [ -n "$$dir" ] || { echo "no chapter $*"; exit 2; }; \
	go test -race -count=1 ./$$dir/... && \
	WALKTHROUGH_IMPL=client-go go test -count=1 -run '^TestScenarios$$' ./$$dir

exercise: ## Check your exercise copy of a chapter: make exercise CH=03.
	@go run ./workshop/cmd/workshop check $(CH)

workshop: ## The learner's runner: make workshop ARGS="status".
	@go run ./workshop/cmd/workshop $(ARGS)

watch: ## Re-run your current exercise every time you save.
	@go run ./workshop/cmd/workshop watch

# A maintainer's command, kept off `make help`: regenerate every chapter's
# exercise/ copy from the reference. It leaves alone a chapter whose copy
# holds edits (a learner's work) unless FORCE=1, which backs them up first.
exercises:
	go run ./workshop/cmd/exgen $(if $(FORCE),-force)

exercises-check:
	@go run ./workshop/cmd/exgen -check

# A maintainer's command, kept off `make help`: replay the story of
# docs/workshop.md's transcripts on a copy of the repository (about 5
# minutes: two status runs and a dozen checks, each a real go test) and
# rewrite them, with the sum of their inputs that TestTranscriptsFresh
# compares.
transcripts:
	go run ./workshop/cmd/transcripts

# Chapter 06's code-generator output must match what `make generate` writes.
generated-check:
	@if [ -d 06-controller ]; then $(MAKE) --no-print-directory generate-check; fi

golden: ## Re-record scenario goldens from client-go (all chapters, or CH=03).
	@for c in $(if $(CH),$(chapter),$(CHAPTERS)); do \
	  echo "recording $$c from client-go"; \
	  (cd $$c && WALKTHROUGH_IMPL=client-go go test -count=1 -run '^TestScenarios$$' . -args -rewrite) || exit 1; \
	done

# Each round runs every benchmark once, ours then upstream, so that a change
# of the machine's load falls on both sides alike; the medians of COUNT
# rounds go into a dated table under .cache/bench/ for the docs to quote.
bench: ## Benchmarks, ours vs client-go: medians of COUNT interleaved rounds (default 5), min-max (all chapters, or CH=03).
	@mkdir -p .cache/bench; for i in $$(seq $(or $(COUNT),5)); do \
	  for c in $(if $(CH),$(chapter),$(CHAPTERS)); do \
	    (cd $$c && go test -run '^$$' -bench . -benchmem -count=1 .) ; \
	  done; \
	done | tee .cache/bench.txt | go run ./workshop/cmd/benchratio -md .cache/bench/$$(date +%F)$(if $(CH),-$(CH)).md

fuzz: ## Fuzz a chapter against client-go: make fuzz CH=03 FUZZTIME=1m.
	@cd $(chapter) && for f in $$(go test -list '^Fuzz' . | grep ^Fuzz); do \
	  go test -run '^$$' -fuzz "^$$f$$" -fuzztime $(or $(FUZZTIME),30s) -fuzzminimizetime 5s . || exit 1; done

check-format:
	@out=$$(gofmt -l $(MODULES) tools 2>/dev/null); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	go vet $(PKGS)
	go vet -tags ours ./06-controller/cmd/demo ./06-controller/app

# go.work lets a module build with requirements its own go.mod lacks; a
# learner who copies one chapter out, or `go get` in it, would meet them.
tidy-check:
	@for m in $(MODULES) tools/controlplane; do \
	  (cd $$m && go mod tidy -diff >/dev/null) || { echo "go.mod of $$m is not tidy: run (cd $$m && go mod tidy)"; exit 1; }; \
	done

selftest: ## The tests of the tests alone.
	go run ./workshop/cmd/selftest

coverage: ## Share of each chapter's code inside exercises, per track (fails under 60%).
	@go run ./workshop/cmd/selftest -coverage

-include mk/*.mk
