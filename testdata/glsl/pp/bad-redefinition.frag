// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
#define A 1
#define A 2
void main() { }
