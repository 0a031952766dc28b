// [config]
// expect_result: pass
// glsl_version: 1.10
// [end config]
#version 110
varying vec4 tc;
void main()
{
    gl_Position = ftransform();
    gl_FrontColor = gl_Color * gl_LightSource[0].diffuse + gl_FrontMaterial.emission;
    gl_TexCoord[0] = gl_TextureMatrix[0] * gl_MultiTexCoord0;
    tc = gl_ModelViewMatrix * gl_Vertex + vec4(gl_NormalMatrix * gl_Normal, gl_Fog.density);
}
