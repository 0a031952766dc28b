// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
#extension GL_NV_nothing_here : warn
#extension all : disable
void main() { }
