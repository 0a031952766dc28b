// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
#line 100
#if __LINE__ != 101
#error line
#endif
#line 7 3
#if __LINE__ != 8 || __FILE__ != 3
#error file
#endif
void main() { }
