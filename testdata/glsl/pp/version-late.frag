// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
precision mediump float;
#version 100
void main() { }
