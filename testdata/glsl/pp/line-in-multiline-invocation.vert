// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
//
// __LINE__ in a replacement list gives the line where a multi-line
// invocation ends (12); arguments expand where they stand (11). A wrong
// value makes the array size negative.
#define BODY __LINE__
#define F(a) (BODY * 1000 + a)
const int l = F(__LINE__
);
uniform float check[l == 12011 ? 1 : -1];
void main() { gl_Position = vec4(check[0]); }
