# mk/cluster.mk: the local control plane and the end-to-end tests (docs/e2e.md).
# Included by the root Makefile; every variable here starts with CLUSTER_. CLUSTER_CMD (the
# cluster command, `cluster up`, `down`, `env`) and CLUSTER_GO are this file's interface:
# mk/chaos.mk runs its clusters with them.

CLUSTER_GO          ?= go
# Run from workshop/ so the command builds whether or not the root go.work lists it.
CLUSTER_CMD         = cd workshop && $(CLUSTER_GO) run ./cmd/cluster
CLUSTER_E2E_RUN     ?= ^TestE2E
CLUSTER_E2E_TIMEOUT ?= 20m

.PHONY: controlplane cluster-up cluster-down cluster-status e2e

# Build etcd and kube-apiserver into .cache/controlplane/bin (skipped when the pins in
# tools/controlplane have not changed; a cold build takes about 8 minutes on 2 cores).
controlplane: ## Build etcd and kube-apiserver from source into .cache/controlplane/bin (about 8 min the first time).
	$(CLUSTER_CMD) build

cluster-up: ## Start the local control plane (etcd and kube-apiserver on 127.0.0.1).
	$(CLUSTER_CMD) up

cluster-down: ## Stop the local control plane.
	$(CLUSTER_CMD) down

cluster-status: ## Say whether the local control plane is up, and where.
	$(CLUSTER_CMD) status

# Bring a cluster up, run every TestE2E… test in every workspace module against it, and
# bring it down whatever happened, keeping the tests' exit status. -p 1 runs one package's
# tests at a time: one test compacts etcd, which must not surprise another package's watch.
e2e: ## End-to-end tests: bring a local cluster up, run every TestE2E… test on it, bring it down.
	$(CLUSTER_CMD) up
	@status=0; \
	eval "$$($(CLUSTER_CMD) env)" && \
	$(CLUSTER_GO) test -count=1 -p 1 -v -timeout $(CLUSTER_E2E_TIMEOUT) -run '$(CLUSTER_E2E_RUN)' \
		$$($(CLUSTER_GO) list -m -f '{{.Dir}}/...') || status=$$?; \
	$(CLUSTER_CMD) down; \
	if [ $$status -ne 0 ]; then echo "e2e: failed; the control plane's logs are in .cache/controlplane/logs"; fi; \
	exit $$status
