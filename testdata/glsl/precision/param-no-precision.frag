// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
void f(float x) { }
void main() { }
