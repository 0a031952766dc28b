// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
#version 100
precision mediump float;
uniform float n;
void main()
{
    float s = 0.0;
    for (int i = 0; i < 4; i++) { if (i == 2) continue; s += float(i); }
    for (float f = 1.0; f >= 0.0; f -= 0.25) s += f;
    int k = 0;
    while (k < 3) { k++; }
    do { s -= 1.0; } while (s > n);
    if (s < 0.0) discard;
    gl_FragColor = vec4(s);
}
