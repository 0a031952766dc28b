// [config]
// expect_result: pass
// glsl_version: 1.20
// [end config]
#version 120
float f(float x) { return x; }
void main()
{
    float a = 1;
    vec3 v = vec3(1.0) * 2;
    mat2x3 m = outerProduct(vec3(1.0), vec2(2, 3));
    mat3x2 t = transpose(m);
    float b = f(3) + float[2](1, 2).length();
    vec2 w = t * v;
    gl_Position = vec4(w, a, b);
}
