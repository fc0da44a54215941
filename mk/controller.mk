# mk/controller.mk: chapter 06's sample controller (docs/06-controller.md).
# Included by the root Makefile; every variable here starts with CONTROLLER_.
#
#   make demo                      the controller on an embedded fake API server (no cluster)
#   make demo MINE=1               the same on your own components (every chapter whose exercises pass)
#   make demo MODE=classic         the same with the classic informer (LIST+WATCH, DeltaFIFO, one pop at a time)
#   make demo CLUSTER=local        the same on the local control plane (make cluster-up's)
#   KUBECONFIG=path make demo      the same on any cluster (the Rollout CRD is applied first)
#   make generate                  regenerate 06-controller's API code with code-generator
#   make generate-check            fail when the committed generated code is stale

CONTROLLER_GO   ?= go
CONTROLLER_DIR  := 06-controller
# MODE=today (the default: WatchList, batch pops) or MODE=classic.
MODE ?= today
ifeq ($(MINE),)
CONTROLLER_DEMO := $(CONTROLLER_GO) run ./$(CONTROLLER_DIR)/cmd/demo -mode=$(MODE)
else
CONTROLLER_DEMO := $(CONTROLLER_GO) run ./workshop/cmd/workshop demo -mode=$(MODE)
endif
# CLUSTER=embedded forces the embedded default even when KUBECONFIG is set.
CLUSTER ?=

.PHONY: demo-run generate generate-check

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
