// [config]
// expect_result: pass
// glsl_version: 1.10
// [end config]
#version 110
uniform sampler1D s1;
uniform sampler3D s3;
uniform sampler2DShadow sh;
void main()
{
    gl_FragColor = gl_Color + texture1D(s1, gl_TexCoord[0].x) + texture3D(s3, gl_TexCoord[1].xyz)
        + shadow2D(sh, gl_TexCoord[0].xyz);
    gl_FragDepth = gl_FragCoord.z;
}
