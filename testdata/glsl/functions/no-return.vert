// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
float f() { }
void main() { gl_Position = vec4(f()); }
