// [config]
// expect_result: fail
// glsl_version: 1.10
// [end config]
#version 110
void main() { mat2x3 m; gl_Position = vec4(0.0); }
