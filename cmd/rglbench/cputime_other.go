//go:build !unix

package main

import "time"

// cpuTime returns 0: CPU time is read through getrusage on Unix only, and
// the CPU figures are then 0.
func cpuTime() time.Duration { return 0 }
