// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
attribute vec4 a;
void main() { }
