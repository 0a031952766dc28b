// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
#if 0
@ ' $ this is not GLSL at all
#foo bar
#endif
void main() { }
