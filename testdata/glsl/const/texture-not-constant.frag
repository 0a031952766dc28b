// [config]
// expect_result: fail
// glsl_version: 1.00
// [end config]
#version 100
precision mediump float;
uniform sampler2D s;
const vec4 c = texture2D(s, vec2(0.0));
void main() { }
