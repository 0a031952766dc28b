// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
highp float x;
void main() { gl_Position = vec4(x); }
