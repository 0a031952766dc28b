// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
#define GL_FOO 1
void main() { }
