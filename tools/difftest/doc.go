// Package difftest is retrogl's differential tester: it generates random
// but valid GL ES 1.1 traces (seeded, covering every state group of the
// specification), replays each on every backend (trace.Player) and on
// Mesa's softpipe (tools/mesaref), compares the images with
// examples/compare's metric and each chip's tolerance, and reduces a
// disagreement to a minimal trace by delta debugging over its calls.
//
// cmd/rgldiff runs any number of seeds and prints, per backend and per
// feature family, the share of scenes rendered without a GL error and the
// share within tolerance; docs/differential.md has the figures and explains
// every remaining disagreement.
package difftest
