// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
void main() { gl_FragCoord = vec4(1.0); }
