# mk/controller.mk: chapter 06's sample controller (docs/06-controller.md).
# Included by the root Makefile; every variable here starts with CONTROLLER_.
#
#   make demo                      the controller on chapter 07's API server and an etcd, in the demo's process
#   make demo MINE=1               the same on your own components (every chapter whose exercises pass)
#   make demo MODE=classic         the same with the classic informer (LIST+WATCH, DeltaFIFO, one pop at a time)
#   make demo SERVER=fake          the same on client-go's fake clientsets (no server, no wire)
#   make demo CLUSTER=local        the same on the local control plane (make cluster-up's)
#   KUBECONFIG=path make demo      the same on any cluster (the Rollout CRD is applied first)
#   make demo VIEW=web             the same, followed live in the step-through viewer (a page on 127.0.0.1)
#   make demo TRACE=path           also record every step, with what each component holds, as JSON lines
#   make demo VIEW=web TRACE=path  replay a recorded trace in the viewer
#   make viewer-trace              record the demo's trace on chapter 07's server to .cache/viewer-trace-ours.jsonl (untracked)
#   make viewer-trace SERVER=fake  the same on the fake clientsets, to .cache/viewer-trace.jsonl
#   make viewer-trace UPDATE=1     replace the viewer's test trace with it and redraw the stills
#                                  (needs Chromium; on failure the old trace is put back)
#   make stills                    redraw the viewer stills in the chapter docs (needs Chromium)
#   make stills-check              fail when those stills are older than the trace or the page
#   make generate                  regenerate 06-controller's API code with code-generator
#   make generate-check            fail when the committed generated code is stale

CONTROLLER_GO   ?= go
CONTROLLER_DIR  := 06-controller
# MODE=today (the default: WatchList, batch pops) or MODE=classic.
MODE ?= today
# SERVER=ours (the default) runs the embedded demo on chapter 07's API
# server, started in the demo's process in about a second (the build tag
# ours: no fake clientset is linked in); SERVER=fake on client-go's fake
# clientsets.
SERVER ?= ours
CONTROLLER_TAGS := $(if $(filter ours,$(SERVER)),-tags ours)
CONTROLLER_SERVER := $(if $(SERVER),-server=$(SERVER))
ifeq ($(MINE),)
CONTROLLER_DEMO := $(CONTROLLER_GO) run $(CONTROLLER_TAGS) ./$(CONTROLLER_DIR)/cmd/demo -mode=$(MODE) $(CONTROLLER_SERVER)
else
CONTROLLER_DEMO := $(CONTROLLER_GO) run ./workshop/cmd/workshop demo -mode=$(MODE) $(CONTROLLER_SERVER)
endif
# CLUSTER=embedded forces the embedded default even when KUBECONFIG is set.
CLUSTER ?=
# VIEW=web serves the step-through viewer (VIEW_ADDR, default
# 127.0.0.1:8089); TRACE=path records the trace, or with VIEW=web replays it.
CONTROLLER_DEMO += $(if $(TRACE),-trace "$(abspath $(TRACE))") $(if $(VIEW),-view "$(VIEW)") $(if $(VIEW_ADDR),-view-addr "$(VIEW_ADDR)")
# The viewer's test traces: the story on the fake server, and with
# SERVER=ours on chapter 07's (whose steps start at etcd).
CONTROLLER_TRACE_NAME := $(if $(filter ours,$(SERVER)),demo-ours,demo)
CONTROLLER_TRACE := $(CONTROLLER_DIR)/viewer/testdata/$(CONTROLLER_TRACE_NAME).jsonl
# Where make viewer-trace records by default: untracked, so recording never
# leaves TestStillsFresh failing (the stills are drawn from CONTROLLER_TRACE).
CONTROLLER_NEW_TRACE := .cache/viewer-trace$(if $(filter ours,$(SERVER)),-ours).jsonl

.PHONY: demo-run generate generate-check viewer-trace stills stills-check

demo-run:
ifeq ($(CLUSTER),local)
	@cd workshop && $(CONTROLLER_GO) run ./cmd/cluster up
	@$(CONTROLLER_DEMO) -kubeconfig "$(CURDIR)/.cache/controlplane/kubeconfig"
else ifeq ($(CLUSTER),embedded)
	@$(CONTROLLER_DEMO)
else ifneq ($(strip $(KUBECONFIG)),)
	@echo "make demo: using the cluster in KUBECONFIG=$(KUBECONFIG) (make demo CLUSTER=embedded needs none)"
	@$(CONTROLLER_DEMO) -kubeconfig "$(firstword $(subst :, ,$(KUBECONFIG)))" -simulate-deployments=false
else
	@$(CONTROLLER_DEMO)
endif

generate: ## Regenerate 06-controller's clientset, listers, informers and deepcopy (code-generator).
	@$(CONTROLLER_DIR)/hack/update-codegen.sh

generate-check: ## Fail when 06-controller's generated code is stale.
	@$(CONTROLLER_DIR)/hack/update-codegen.sh --check

viewer-trace: ## Record the demo's trace to .cache/viewer-trace.jsonl; UPDATE=1 also replaces the viewer's test trace and redraws the stills (Chromium), or changes nothing.
	@mkdir -p $(dir $(CONTROLLER_NEW_TRACE))
	@$(CONTROLLER_GO) run $(CONTROLLER_TAGS) ./$(CONTROLLER_DIR)/cmd/demo -pause 0 $(CONTROLLER_SERVER) -trace "$(CURDIR)/$(CONTROLLER_NEW_TRACE)" >/dev/null
	@echo "recorded $(CONTROLLER_NEW_TRACE): $$(wc -l < $(CONTROLLER_NEW_TRACE)) steps, $$(du -k $(CONTROLLER_NEW_TRACE) | cut -f1) KB"
ifeq ($(UPDATE),)
	@echo "The viewer's test trace, $(CONTROLLER_TRACE), is unchanged."
	@echo "To replace it and redraw the stills drawn from it (needs Chromium):"
	@echo "  make viewer-trace UPDATE=1"
else
	@# The stills and their stamp are drawn from the tracked trace: replace
	@# both or neither, so TestStillsFresh never fails on a half update.
	@cp $(CONTROLLER_TRACE) $(CONTROLLER_NEW_TRACE).old
	@cp $(CONTROLLER_NEW_TRACE) $(CONTROLLER_TRACE)
	@if $(MAKE) --no-print-directory stills; then \
	  echo "replaced $(CONTROLLER_TRACE) and redrew the stills in docs/img; commit both"; \
	else \
	  cp $(CONTROLLER_NEW_TRACE).old $(CONTROLLER_TRACE); \
	  echo "make stills failed, so $(CONTROLLER_TRACE) is put back as it was (stills need Chromium: sudo apt-get install chromium)"; \
	  exit 1; \
	fi
endif

stills: ## Redraw the viewer stills in the chapter docs from the recorded trace (needs Chromium).
	@cd $(CONTROLLER_DIR) && $(CONTROLLER_GO) test -count=1 -run '^TestStills$$' ./viewer -args -write-stills

stills-check:
	@cd $(CONTROLLER_DIR) && $(CONTROLLER_GO) test -count=1 -run '^TestStillsFresh$$' ./viewer
