// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
precision mediump float;
struct Light { vec3 dir; float w; };
struct Scene { Light lights[2]; mat3 m; };
uniform Scene scene;
void main()
{
    Light l = scene.lights[1];
    Light k = Light(vec3(1.0), 0.5);
    bool same = l == k;
    vec3 d = scene.m * l.dir + k.dir.zyx;
    gl_FragColor = vec4(d, same ? 1.0 : 0.0);
}
