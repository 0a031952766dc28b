// [config]
// expect_result: fail
// glsl_version: 1.00
// appendix_a: true
// [end config]
#version 100
precision mediump float;
void main() { for (int i = 0; i < 4; i++) { i += 1; } }
