// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
#define MAD(a, b, c) ((a) * (b) + (c))
#define TWICE(x) MAD(x, 2.0, 0.0)
#define EMPTY()
attribute vec4 pos;
void main() { gl_Position = TWICE(pos) EMPTY(); }
