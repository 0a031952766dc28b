// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
float b(float x);
float a(float x) { return b(x); }
float b(float x) { return a(x); }
void main() { gl_Position = vec4(a(1.0)); }
