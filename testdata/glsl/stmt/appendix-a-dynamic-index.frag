// [config]
// expect_result: fail
// glsl_version: 1.00
// appendix_a: true
// [end config]
#version 100
precision mediump float;
uniform vec4 u[4];
uniform int k;
void main() { gl_FragColor = u[k]; }
