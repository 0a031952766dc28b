// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
const int a = 017 + 0x1F + 0XaB;
void main() { gl_Position = vec4(float(a)); }
