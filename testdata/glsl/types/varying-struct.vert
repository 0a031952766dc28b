// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
struct S { float f; };
varying S s;
void main() { }
