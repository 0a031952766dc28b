// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
uniform vec4 u;
void main() { u.x = 1.0; }
