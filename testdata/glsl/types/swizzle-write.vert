// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
void main() { vec4 v = vec4(0.0); v.wzy = vec3(1.0, 2.0, 3.0); v.x += 1.0; gl_Position = v; }
