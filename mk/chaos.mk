# mk/chaos.mk: the fault tier (docs/e2e.md, "Faults"). Included by the root Makefile; every
# variable here starts with CHAOS_. Its clusters come from mk/cluster.mk's interface,
# CLUSTER_CMD and CLUSTER_GO.
#
#   make chaos                      bring a cluster up, run every fault, print the table, bring it down
#   make chaos CHAOS_ONLY=etcd      only the faults whose name matches "etcd" (a regexp)
#   make chaos CHAOS_REPEAT=9       each fault nine times, then each one's medians
#   make chaos-mutants              run the faults that must catch each known bug, expect failures
#
# It restarts kube-apiserver and etcd and compacts etcd, so it never shares a cluster with
# other tests: run it after `make e2e`, as .ci/run does.

CHAOS_TIMEOUT ?= 12m
CHAOS_ONLY    ?=
CHAOS_REPEAT  ?= 1
# mutant:fault pairs: each mutant (04-processor/chaos/testdata/mutants) and the CHAOS_ONLY
# regexp of the fault that must catch it, which ends the mutant's paragraph. Expanded only
# when chaos-mutants runs.
CHAOS_MUTANTS ?= $(shell $(CLUSTER_GO) run ./workshop/cmd/chaosmutant -pairs)
CHAOS_FILTER  = grep -E '^(--- |ok|FAIL|PASS|panic)|trace:|Failed to watch|chaos_test.go:[0-9]+:|^[a-z].* \| |^-{20}'
# CHAOS_RUN runs the suite on a cluster that is up: $(call CHAOS_RUN,only,extra go test flags,extra env,tests)
# where tests is TestChaos (against kube-apiserver), TestChaosOurServer (against chapter 07's
# server, on the cluster's etcd) or both, as a regexp.
CHAOS_RUN = eval "$$($(CLUSTER_CMD) env)" && WALKTHROUGH_CHAOS=1 CHAOS_ONLY="$(1)" CHAOS_REPEAT="$(CHAOS_REPEAT)" $(3) \
	$(CLUSTER_GO) test -count=1 -v -timeout $(CHAOS_TIMEOUT) $(2) -run '^($(4))$$' ./04-processor/chaos/

.PHONY: chaos chaos-mutants

chaos: ## The fault tier: cut, restart, compact, churn and corrupt under ours and client-go side by side, on kube-apiserver and on chapter 07's server.
	@mkdir -p .cache
	$(CLUSTER_CMD) up
	@status=0; \
	$(call CHAOS_RUN,$(CHAOS_ONLY),,,TestChaos|TestChaosOurServer) 2>&1 | tee .cache/chaos.log | $(CHAOS_FILTER); \
	status=$${PIPESTATUS[0]}; \
	$(CLUSTER_CMD) down; \
	if [ $$status -ne 0 ]; then echo "chaos: failed; the full log is .cache/chaos.log, the control plane's in .cache/controlplane/logs"; fi; \
	exit $$status

chaos-mutants: ## Prove the fault tier has teeth: each known bug must make its fault fail.
	@mkdir -p .cache
	$(CLUSTER_CMD) up
	@status=0; \
	for pair in $(CHAOS_MUTANTS); do \
	  m=$${pair%%:*}; only=$${pair#*:}; \
	  overlay=$$(go run ./workshop/cmd/chaosmutant $$m) || { status=1; break; }; \
	  if ( $(call CHAOS_RUN,$$only,-overlay $$overlay,CHAOS_CONVERGE=30s,TestChaos|TestChaosOurServer) ) > .cache/chaos-$$m.log 2>&1; then \
	    echo "chaos-mutants: $$m SURVIVED the $$only fault (log: .cache/chaos-$$m.log)"; status=1; \
	  else \
	    echo "chaos-mutants: $$m caught by the $$only fault:"; grep -m3 -E 'inconsistent story|differs from the server' .cache/chaos-$$m.log | sed 's/^ */    /'; \
	  fi; \
	done; \
	$(CLUSTER_CMD) down; \
	exit $$status
