// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
float f() { return 1; }
void main() { }
