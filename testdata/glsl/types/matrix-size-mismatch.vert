// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
void main() { mat3 m; vec4 v; gl_Position = m * v; }
