// [config]
// expect_result: fail
// glsl_version: 1.00
// appendix_a: true
// [end config]
#version 100
precision mediump float;
void main() { int k = 0; while (k < 3) { k++; } }
