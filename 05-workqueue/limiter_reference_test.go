package workqueue_test

import (
	"fmt"

	"golang.org/x/time/rate"

	ours "example.com/walkthrough/05-workqueue"
	"example.com/walkthrough/workshop/scenario"
)

// Our rate limiters, made from a scenario's spec. `make exercises` derives
// two twins from this file, so keep everything inside init (a twin must
// not redeclare anything): the exercise one, pointed at the exercise/
// copy, and client-go's, through which the goldens are recorded. Our
// limiters have client-go's API, so renaming the package (the directive
// below) is all the client-go one needs. The queues are in the adapter
// files, whose client-go one is hand-written (see there).
//
//exgen:clientgo k8s.io/client-go/util/workqueue ours
func init() {
	var build func(s *limiterSpec) ours.TypedRateLimiter[string]
	build = func(s *limiterSpec) ours.TypedRateLimiter[string] {
		switch s.Kind {
		case "exponential":
			return ours.NewTypedItemExponentialFailureRateLimiter[string](s.Dur(0), s.Dur(1))
		case "fast-slow":
			return ours.NewTypedItemFastSlowRateLimiter[string](s.Dur(0), s.Dur(1), s.Int(2))
		case "bucket":
			return &ours.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Limit(s.Float(0)), s.Int(1))}
		case "max-of":
			var limiters []ours.TypedRateLimiter[string]
			for _, c := range s.Limiters() {
				limiters = append(limiters, build(c))
			}
			return ours.NewTypedMaxOfRateLimiter(limiters...)
		case "max-wait":
			return ours.NewTypedWithMaxWaitRateLimiter(build(s.Args[0].Limiter), s.Dur(1))
		case "default-controller":
			return ours.DefaultTypedControllerRateLimiter[string]()
		case "default-item-based":
			return ours.DefaultTypedItemBasedRateLimiter[string]()
		}
		panic(fmt.Sprintf("unknown rate limiter %q", s.Kind))
	}
	registerLimiters(scenario.Reference, func(s *limiterSpec) RateLimiter { return build(s) })
}
