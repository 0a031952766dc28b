// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
uniform float u = 1.0;
void main() { }
