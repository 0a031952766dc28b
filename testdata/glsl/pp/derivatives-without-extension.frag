// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
precision mediump float;
varying vec2 uv;
void main() { gl_FragColor = vec4(dFdx(uv), 0.0, 0.0); }
