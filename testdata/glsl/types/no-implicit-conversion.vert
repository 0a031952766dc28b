// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
void main() { float f = 1; gl_Position = vec4(f); }
