// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
//
// Section 3.4: an undefined name is an error only where it is evaluated;
// || and && short-circuit as in C.
#if 1 || UNDEFINED_NAME
#else
#error || did not short-circuit
#endif
#if 0 && UNDEFINED_NAME
#error && did not short-circuit
#endif
void main() { gl_Position = vec4(0.0); }
