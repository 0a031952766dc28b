// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
float f(float a) { { float a = 2.0; return a; } }
void main() { gl_Position = vec4(f(1.0)); }
