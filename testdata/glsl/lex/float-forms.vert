// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
const float a = 1.5e3 + .5 + 2. + 3e-2 + 1E+2;
void main() { gl_Position = vec4(a); }
