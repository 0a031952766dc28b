// [config]
// expect_result: fail
// glsl_version: 1.10
// [end config]
#version 110
void main() { float a = 1; gl_Position = vec4(a); }
