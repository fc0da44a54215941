module example.com/walkthrough/05-workqueue

go 1.26.8

require (
	example.com/walkthrough/workshop v0.0.0-00010101000000-000000000000
	github.com/cockroachdb/datadriven v1.0.3
	github.com/google/go-cmp v0.7.0
	golang.org/x/time v0.15.0
	k8s.io/client-go v0.37.2
)

require (
	github.com/go-logr/logr v1.4.3 // indirect
	github.com/pmezard/go-difflib v1.0.1-0.20181226105442-5d4384ee4fb2 // indirect
	k8s.io/apimachinery v0.37.2 // indirect
	k8s.io/klog/v2 v2.140.0 // indirect
	k8s.io/utils v0.0.0-20260626114624-be93311217bd // indirect
)

replace example.com/walkthrough/workshop => ../workshop
