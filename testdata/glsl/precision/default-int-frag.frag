// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
precision lowp float;
void main() { int i = 2; float f = float(i); gl_FragColor = vec4(f); }
