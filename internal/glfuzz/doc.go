// Package glfuzz is retrogl's API fuzzer: it drives random GL ES 1.1 and
// 2.0 call sequences with hostile arguments (huge, negative and
// overflowing numbers, short slices, deleted names, invalid enums, wrong
// argument types) into a gles.Context on any backend, and reports what no
// application may cause: a panic, a hang, unbounded memory growth, a
// simulator panic turned into a device fault, or a device fault from a
// stream the driver built.
//
// A Program is a backend, a surface configuration and a list of calls. It
// prints as a short Go program (Program.Format) that reproduces it on its
// own, and that text parses back (Parse): the committed seeds under
// testdata/seeds are such programs, one per class of bug the fuzzer found.
// Generate builds a random Program from a Source (a seeded PRNG, or the
// bytes of a Go fuzz input); Run executes one under a deadline and a heap
// bound; Minimize shrinks a failing Program to the calls and arguments the
// failure needs.
//
// The entry points and enumerants come from package gles's source through
// internal/apigen (api_gen.go; `go generate ./internal/glfuzz`), so a new
// entry point is fuzzed as soon as it exists. The command cmd/rglfuzz runs
// the fuzzer for a given time across backends, in child processes so that
// a hang or a fatal out-of-memory error is caught too.
package glfuzz

//go:generate go run ./internal/apigen -gles ../../gles -out api_gen.go
