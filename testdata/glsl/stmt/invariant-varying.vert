// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
invariant varying vec4 color;
varying vec2 uv;
invariant uv;
invariant gl_Position;
void main() { color = vec4(1.0); uv = vec2(0.0); gl_Position = vec4(0.0); }
