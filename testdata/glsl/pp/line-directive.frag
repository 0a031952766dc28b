// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
// In GLSL ES the line after "#line N" is N (desktop GLSL 1.10: N+1).
#line 100
#if __LINE__ != 100
#error line
#endif
#line 7 3
#if __LINE__ != 7 || __FILE__ != 3
#error file
#endif
#line (233 + 10) (+10)
#if __LINE__ != 243 || __FILE__ != 10
#error expressions
#endif
void main() { }
