// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
float f(float a) { float a = 2.0; return a; }
void main() { }
