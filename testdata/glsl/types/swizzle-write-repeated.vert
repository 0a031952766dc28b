// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
void main() { vec4 v; v.xx = vec2(1.0); gl_Position = v; }
