// [config]
// expect_result: pass
// glsl_version: 1.10
// [end config]
#version 110
// In desktop GLSL before 3.30 the line after "#line N" is N+1.
#line 100
#if __LINE__ != 101
#error line
#endif
#line 7 3
#if __LINE__ != 8 || __FILE__ != 3
#error file
#endif
void main() { }
