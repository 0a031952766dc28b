// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
precision mediump float;
struct S { vec2 a; float b; };
void main() { S s = S(vec3(1.0), 1.0); }
