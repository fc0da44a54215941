# mk/chaos.mk: the fault tier (docs/e2e.md, "Faults"). Included by the root Makefile; every
# variable here starts with CHAOS_.
#
#   make chaos                      bring a cluster up, run every fault, print the table, bring it down
#   make chaos CHAOS_ONLY=etcd      only the faults whose name contains "etcd"
#
# It restarts kube-apiserver and etcd and compacts etcd, so it never shares a cluster with
# other tests: run it after `make e2e`, as .ci/run does.

CHAOS_TIMEOUT ?= 12m
CHAOS_ONLY    ?=

.PHONY: chaos

chaos: ## The fault tier: cut, restart, compact, churn and corrupt under ours and client-go side by side.
	$(CLUSTER_CMD) up
	@status=0; \
	eval "$$($(CLUSTER_CMD) env)" && \
	WALKTHROUGH_CHAOS=1 CHAOS_ONLY='$(CHAOS_ONLY)' $(CLUSTER_GO) test -count=1 -v -timeout $(CHAOS_TIMEOUT) \
		-run '^TestChaos$$' ./04-processor/chaos/ 2>&1 | tee .cache/chaos.log | \
		grep -E '^(=== RUN|--- |ok|FAIL|PASS|panic)|trace:|Failed to watch|chaos_test.go:[0-9]+:|^[a-z].* \| |^-{20}' ; \
	status=$${PIPESTATUS[0]}; \
	$(CLUSTER_CMD) down; \
	if [ $$status -ne 0 ]; then echo "chaos: failed; the full log is .cache/chaos.log, the control plane's in .cache/controlplane/logs"; fi; \
	exit $$status
