// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
uniform mat4 mvp;
uniform mat3 nm;
attribute vec4 pos;
attribute vec3 nrm;
varying vec3 n;
void main()
{
    mat2 a = mat2(1.0, 2.0, 3.0, 4.0);
    mat2 b = a * a;
    vec2 r = a * vec2(1.0) + vec2(1.0) * b;
    mat4 m = mvp * 2.0;
    m[1][2] = r.x;
    mat3 c = mat3(mvp);
    n = nm * nrm + c[0];
    gl_Position = m * pos + vec4(matrixCompMult(a, b)[0], r);
}
