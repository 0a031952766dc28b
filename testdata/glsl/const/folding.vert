// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
const float pi = 3.14159265;
const vec3 v = normalize(vec3(3.0, 0.0, 4.0)) * 5.0;
const mat2 m = mat2(2.0) * mat2(1.0, 2.0, 3.0, 4.0);
const bool b = all(lessThan(vec2(1.0), vec2(2.0, 3.0))) && !any(bvec2(false));
const int i = 7 / 2 * 2 - -3;
const float s = m[1].y + v.z + float(i) + (b ? 1.0 : 0.0) + radians(180.0) - pi;
uniform float arr[i];
void main() { gl_Position = vec4(s) + vec4(arr[0]); }
