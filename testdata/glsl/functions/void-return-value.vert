// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
void f() { return 1.0; }
void main() { }
