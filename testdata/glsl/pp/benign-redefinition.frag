// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
#define A(x)  x + 1
#define A(x) x + 1
void main() { }
