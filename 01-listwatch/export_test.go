package listwatch

import "time"

// SharedBackoff returns the next method of a new backoff, the one a
// Reflector keeps: the stress test calls it from several goroutines at
// once, as code that shares one backoff may.
func SharedBackoff() (next func() time.Duration) { return newBackoff(nil).next }
