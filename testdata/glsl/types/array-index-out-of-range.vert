// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
uniform vec4 u[3];
void main() { gl_Position = u[3]; }
