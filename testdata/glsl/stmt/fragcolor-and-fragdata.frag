// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
precision mediump float;
void main() { gl_FragColor = vec4(1.0); gl_FragData[0] = vec4(0.0); }
