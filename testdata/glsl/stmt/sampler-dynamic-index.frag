// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
precision mediump float;
uniform sampler2D s[2];
uniform int k;
void main() { gl_FragColor = texture2D(s[k], vec2(0.0)); }
