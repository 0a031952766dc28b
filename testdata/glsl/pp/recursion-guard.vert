// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
float F(float a) { return a; }
#define A B
#define B A
#define F(a) (F(a) + a)
float A = 1.0;             // A -> B -> A: painted, not expanded again
void main()
{
    float y = F(A);        // (F(A) + A): F is not expanded again
    gl_Position = vec4(y);
}
