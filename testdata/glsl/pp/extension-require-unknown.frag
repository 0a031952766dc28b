// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
#extension GL_NV_nothing_here : require
void main() { }
