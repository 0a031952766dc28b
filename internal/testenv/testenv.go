// Package testenv lets a test say which system package it needs. On a
// developer's machine a missing package skips the test with the package's
// name; under CI (the CI environment variable set) it fails the test, so a
// check that could not run is never counted as passed.
package testenv

import (
	"os"
	"testing"
)

// CI reports whether the tests run under continuous integration.
func CI() bool { return os.Getenv("CI") != "" }

// Need stops the test when err (the result of looking for the Debian
// package pkg) is not nil: a failure under CI, a skip elsewhere.
func Need(t testing.TB, pkg string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if CI() {
		t.Fatalf("missing Debian package %s (CI must install it in .ci/run): %v", pkg, err)
	}
	t.Skipf("needs Debian package %s: %v", pkg, err)
}
