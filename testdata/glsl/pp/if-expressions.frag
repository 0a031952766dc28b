// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
#if (1 << 3) != 8 || 7 / 2 != 3 || -7 % 3 != -1 || !(2 > 1) || (0x10 | 1) != 17 || 010 != 8
#error arithmetic
#endif
#if defined(GL_ES) && defined GL_ES && GL_ES == 1
precision mediump float;
#else
#error GL_ES
#endif
#if 0 && (1 / 0)
#error short-circuit
#endif
#define A 2
#if A == 1
#error A1
#elif A == 2
void main() { gl_FragColor = vec4(1.0); }
#elif 1 / 0
#else
#error else
#endif
