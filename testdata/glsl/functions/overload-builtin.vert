// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
bool radians(bool b) { return !b; }
float tan;
void main() { gl_Position = vec4(radians(1.0)) + vec4(radians(false) ? 1.0 : 0.0); }
