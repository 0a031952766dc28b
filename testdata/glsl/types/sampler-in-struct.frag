// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
precision mediump float;
struct Mat { sampler2D tex; vec4 tint; };
uniform Mat mats[2];
varying vec2 uv;
vec4 shade(sampler2D s, vec2 c) { return texture2D(s, c); }
void main() { gl_FragColor = shade(mats[1].tex, uv) * mats[0].tint; }
