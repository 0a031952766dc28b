// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
void bump(inout vec4 v, const in float k) { v.xy += vec2(k); }
void main() { vec4 v = vec4(0.0); bump(v, 2.0); gl_Position = v; }
