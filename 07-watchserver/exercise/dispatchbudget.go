// Your copy of ../dispatchbudget.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 07`
// checks your work, and `go run ./workshop/cmd/workshop hint 07 N` gives
// exercise N's hint.

package watchserver

import "example.com/walkthrough/workshop/todo"

import "time"

// dispatchBudget is how long the dispatcher may still wait, in all, for
// watchers whose buffer is full. It starts empty and refills with time, at
// refill a second up to size (kube-apiserver: 50 ms a second, up to
// 100 ms). A burst of events that meet slow watchers spends it; after
// that, each one gets only what refilled since the last, so slow clients
// cannot hold the resource's other watchers back by 100 ms per event. A
// wait that ended early gives the rest back.
//
// Only the dispatcher uses it, so it needs no lock (kube-apiserver's has
// one it does not need either: its own comment says not to share it).
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/time_budget.go (timeBudgetImpl)
type dispatchBudget struct {
	left   time.Duration
	size   time.Duration
	refill time.Duration // per second
	last   time.Time     // when it was last taken
}

func newDispatchBudget(size, refill time.Duration, now time.Time) *dispatchBudget {
	return &dispatchBudget{size: size, refill: refill, last: now}
}

// take hands out the whole budget: what was left, plus what refilled
// since the last take, at most size. The budget is empty until giveBack.
func (b *dispatchBudget) take(now time.Time) time.Duration {
	if elapsed := now.Sub(b.last); elapsed > 0 {
		b.left += time.Duration(elapsed.Seconds() * float64(b.refill))
	}
	b.left, b.last = min(b.left, b.size), now
	taken := b.left
	b.left = 0
	return taken
}

// giveBack returns what a wait did not use (nothing, if it overran).
func (b *dispatchBudget) giveBack(unused time.Duration) {
	if unused > 0 {
		b.left = min(b.left+unused, b.size)
	}
}

// keeps the todo import in use once every stub above is filled in; delete
// both whenever you like.
var _ = todo.Exercise
